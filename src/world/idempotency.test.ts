import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpError, VirtualClock } from '../core/index.js';
import { DEFAULT_RETENTION_MS, IdempotencyTable, requestFingerprint, requestText } from './idempotency.js';

const fp = requestFingerprint('create_order', { clientReference: 'r-1', quantity: 1 });

/** A run that counts its executions and answers with the count. */
function counter(): { run: () => number; readonly calls: number } {
  let calls = 0;
  return {
    run: () => ++calls,
    get calls() {
      return calls;
    },
  };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    (v) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(v)}`);
    },
    (e: unknown) => e,
  );
}

describe('requestFingerprint', () => {
  it('ignores key order and tells tools and inputs apart', () => {
    expect(requestFingerprint('t', { a: 1, b: 2 })).toBe(requestFingerprint('t', { b: 2, a: 1 }));
    expect(requestFingerprint('t', { a: 1 })).not.toBe(requestFingerprint('t', { a: 2 }));
    expect(requestFingerprint('t', { a: 1 })).not.toBe(requestFingerprint('u', { a: 1 }));
  });
});

describe('requestText', () => {
  it(
    'tells two requests apart exactly when their fingerprints do (the in-memory table compares texts, ' +
      'a database row holds the hash)',
    () => {
      // Small domains, so that equal requests (key order apart) come up often.
      const input = fc.dictionary(
        fc.constantFrom('a', 'b', 'c'),
        fc.constantFrom<unknown>(1, '1', null, [1], { x: 1 }),
        {
          maxKeys: 3,
        },
      );
      const request = fc.tuple(fc.constantFrom('create_order', 'charge_payment'), input);
      fc.assert(
        fc.property(request, request, ([t1, i1], [t2, i2]) => {
          expect(requestText(t1, i1) === requestText(t2, i2)).toBe(
            requestFingerprint(t1, i1) === requestFingerprint(t2, i2),
          );
          expect(requestFingerprint(t1, i1)).toBe(requestFingerprint(t1, JSON.parse(requestText(t1, i1)).input));
        }),
        { numRuns: 2000 },
      );
    },
  );
});

describe('IdempotencyTable', () => {
  it('replays the first value for a reused key, without running again', async () => {
    const table = new IdempotencyTable(new VirtualClock());
    const c = counter();
    expect(await table.execute('k1', () => fp, c.run)).toBe(1);
    expect(await table.execute('k1', () => fp, c.run)).toBe(1);
    expect(c.calls).toBe(1);
    expect(await table.execute('k2', () => fp, c.run)).toBe(2);
  });

  it('replays the first error, even a 500, as the same error', async () => {
    const table = new IdempotencyTable(new VirtualClock());
    const boom = new HttpError(500, 'internal error', { error: { type: 'api_error' } });
    let calls = 0;
    const run = (): number => {
      calls++;
      if (calls === 1) throw boom;
      return calls;
    };
    expect(await rejection(table.execute('k', () => fp, run))).toBe(boom);
    expect(await rejection(table.execute('k', () => fp, run))).toBe(boom);
    expect(calls).toBe(1);
    expect(table.lookup('k')).toMatchObject({ state: 'completed', result: { kind: 'error', error: boom } });
  });

  it('refuses a reused key with different parameters with 422', async () => {
    const table = new IdempotencyTable(new VirtualClock());
    const c = counter();
    await table.execute('k', () => fp, c.run);
    const error = await rejection(
      table.execute('k', () => requestFingerprint('create_order', { clientReference: 'r-2' }), c.run),
    );
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(422);
    expect((error as HttpError).body).toEqual({
      error: {
        type: 'idempotency_error',
        code: 'key_reused_with_different_parameters',
        message: 'idempotency key "k" was already used with different parameters; use a new key for a new request',
      },
    });
    expect(c.calls).toBe(1);
  });

  it('refuses a concurrent duplicate with 409 and runs the first exactly once', async () => {
    const clock = new VirtualClock();
    const table = new IdempotencyTable(clock);
    let calls = 0;
    const run = async (): Promise<string> => {
      calls++;
      await clock.sleep(100);
      return 'done';
    };
    const outcome = await clock.run(async () => {
      const first = table.execute('k', () => fp, run);
      const second = await rejection(table.execute('k', () => fp, run));
      expect(table.lookup('k')).toMatchObject({ state: 'in_flight', createdAt: 0 });
      return { first: await first, second };
    });
    expect(outcome.kind).toBe('settled');
    if (outcome.kind !== 'settled') return;
    expect(outcome.value.first).toBe('done');
    expect(outcome.value.second).toBeInstanceOf(HttpError);
    const second = outcome.value.second as HttpError;
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ error: { type: 'idempotency_error', code: 'concurrent_request' } });
    expect(calls).toBe(1);
    expect(table.lookup('k')).toMatchObject({
      state: 'completed',
      createdAt: 0,
      completedAt: 100,
      result: { kind: 'value', value: 'done' },
    });
  });

  it('forgets a key once the retention window has passed, and not before', async () => {
    const clock = new VirtualClock();
    const table = new IdempotencyTable(clock, { retentionMs: 1_000 });
    const c = counter();
    expect(
      await clock.run(async () => {
        expect(await table.execute('k', () => fp, c.run)).toBe(1);
        await clock.sleep(999);
        expect(await table.execute('k', () => fp, c.run)).toBe(1);
        await clock.sleep(1);
        expect(table.lookup('k')).toBeUndefined();
        // Expired keys are new: even different parameters are accepted.
        expect(await table.execute('k', () => requestFingerprint('x', {}), c.run)).toBe(2);
      }),
    ).toMatchObject({ kind: 'settled' });
    expect(c.calls).toBe(2);
  });

  it('keeps keys for 24 hours by default', async () => {
    const clock = new VirtualClock();
    const table = new IdempotencyTable(clock);
    expect(table.config).toEqual({ enabled: true, retentionMs: DEFAULT_RETENTION_MS });
    const c = counter();
    expect(
      await clock.run(async () => {
        await table.execute('k', () => fp, c.run);
        await clock.sleep(24 * 60 * 60 * 1000 - 1);
        await table.execute('k', () => fp, c.run);
        await clock.sleep(1);
        await table.execute('k', () => fp, c.run);
      }),
    ).toMatchObject({ kind: 'settled' });
    expect(c.calls).toBe(2);
  });

  it('just runs when disabled or when no key is sent, and remembers nothing', async () => {
    const off = new IdempotencyTable(new VirtualClock(), { enabled: false });
    const c = counter();
    await off.execute('k', () => fp, c.run);
    await off.execute('k', () => fp, c.run);
    expect(c.calls).toBe(2);
    expect(off.lookup('k')).toBeUndefined();

    const on = new IdempotencyTable(new VirtualClock());
    await on.execute(undefined, () => fp, c.run);
    await on.execute(undefined, () => fp, c.run);
    expect(c.calls).toBe(4);
    // The fingerprint is hashed only where a key is honoured: a keyless request never asks for it.
    let asked = 0;
    const counted = (): string => (asked++, fp);
    await on.execute(undefined, counted, c.run);
    await off.execute('k', counted, c.run);
    expect(asked).toBe(0);
    await on.execute('k-new', counted, c.run);
    expect(asked).toBe(1);
  });
});
