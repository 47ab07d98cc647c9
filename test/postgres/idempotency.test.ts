import { describe, expect, it } from 'vitest';
import { HttpError, VirtualClock } from '../../src/core/index.js';
import { deliver, queryStatus } from '../../src/world/deliver.js';
import { requestFingerprint } from '../../src/world/idempotency.js';
import { createPostgresWorld } from '../../src/world/postgres/createPostgresWorld.js';
import { PgDatabase } from '../../src/world/postgres/PgDatabase.js';
import { PgIdempotencyTable } from '../../src/world/postgres/PgIdempotencyTable.js';
import { ensureWorldSchema } from '../../src/world/postgres/schema.js';
import { clientPerRequest, skipReason, useTestDatabase } from './postgres.js';

const order = { clientReference: 'ref-1', item: 'book', quantity: 2, amountCents: 1_500 };
const created = { orderId: 'ord-1', ...order, status: 'created' };

describe.skipIf(skipReason !== undefined)('server-side idempotency in Postgres (R24)', () => {
  const database = useTestDatabase(20);

  it('100 concurrent copies of one keyed request from separate connections commit exactly one effect', async () => {
    const db = database();
    const clock = new VirtualClock(1_000);
    const id = 'concurrent-100';
    // 100 "server processes" on one world, each with its own idempotency table: half share a
    // pool of 20 connections, half open a fresh connection for every query.
    const perRequest = clientPerRequest(db.pg.url);
    const first = await createPostgresWorld(db.pool, clock, { orders: {} }, ['orders'], { id });
    const worlds = [first];
    for (let i = 1; i < 100; i++) {
      worlds.push(
        await createPostgresWorld(i < 50 ? db.pool : perRequest, clock, { orders: {} }, ['orders'], {
          id,
          reset: false,
        }),
      );
    }

    const run = await clock.run(() =>
      Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          deliver(worlds[i]!, 'create_order', order, { request: `req-${i}`, idempotencyKey: 'k-100' }).then(
            (value) => ({ kind: 'ok' as const, value }),
            (error: unknown) => ({ kind: 'refused' as const, error }),
          ),
        ),
      ),
    );
    expect(run.kind).toBe('settled');
    if (run.kind !== 'settled') return;
    const answers = run.value;
    const ok = answers.filter((a) => a.kind === 'ok');
    const refused = answers.filter((a) => a.kind === 'refused');
    // None lost: every caller got an answer, and each is the first result or a 409.
    expect(ok.length + refused.length).toBe(100);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const a of ok) expect(a.value).toEqual(created);
    console.info(`[faultline] 100 concurrent copies: ${ok.length} got the first result, ${refused.length} a 409`);
    for (const a of refused) {
      expect(a.error).toBeInstanceOf(HttpError);
      expect(a.error).toMatchObject({
        status: 409,
        body: { error: { type: 'idempotency_error', code: 'concurrent_request' } },
      });
    }
    const count = async (sql: string): Promise<number> =>
      Number((await db.pool.query<{ n: string }>(sql, [id])).rows[0]!.n);
    expect(await count('SELECT count(*) AS n FROM faultline_effects WHERE world = $1')).toBe(1);
    expect(await count('SELECT count(*) AS n FROM faultline_orders WHERE world = $1')).toBe(1);
    expect(await count('SELECT count(*) AS n FROM faultline_idempotency WHERE world = $1')).toBe(1);
    // At least one query (the claim) per request on its own connection.
    expect(perRequest.opened).toBeGreaterThanOrEqual(50);
    // Exactly one process mirrored the effect it committed.
    expect(worlds.map((w) => w.ledger.length).reduce((a, b) => a + b, 0)).toBe(1);
    // After the race, every resend replays the one result.
    expect(await deliver(worlds[3]!, 'create_order', order, { request: 'late', idempotencyKey: 'k-100' })).toEqual(
      created,
    );
  });

  it('refuses a reused key with other parameters (422) and replays the first result, even a 500', async () => {
    const db = database();
    const clock = new VirtualClock(5_000);
    const world = await createPostgresWorld(db.pool, clock, { orders: {} }, ['orders'], { id: 'replay' });
    const first = await deliver(world, 'create_order', order, { request: 'r1', idempotencyKey: 'k' });
    expect(first).toEqual(created);
    expect(await deliver(world, 'create_order', order, { request: 'r2', idempotencyKey: 'k' })).toEqual(created);
    await expect(
      deliver(world, 'create_order', { ...order, quantity: 3 }, { request: 'r3', idempotencyKey: 'k' }),
    ).rejects.toMatchObject({
      status: 422,
      body: { error: { type: 'idempotency_error', code: 'key_reused_with_different_parameters' } },
    });

    // A failure stored under its key is replayed, not retried: still no order for ref-500.
    const failing = { ...order, clientReference: 'ref-500' };
    const boom = new HttpError(500, 'The server had an error while processing your request.', {
      error: { type: 'server_error' },
    });
    const spec = world.tools.find((t) => t.name === 'create_order')!;
    const ctx = { world, clock, request: 'r4', idempotencyKey: 'k-500', failure: boom };
    await expect(spec.run(failing, ctx)).rejects.toBe(boom);
    const replayed = await deliver(world, 'create_order', failing, { request: 'r5', idempotencyKey: 'k-500' }).catch(
      (e: unknown) => e,
    );
    expect(replayed).toBeInstanceOf(HttpError);
    expect(replayed).toMatchObject({ status: 500, message: boom.message, body: { error: { type: 'server_error' } } });
    expect(
      await queryStatus(world, 'create_order', { op: 'o', idempotencyKey: 'k-500', input: failing }, { request: 's' }),
    ).toEqual({
      state: 'failed',
      status: 500,
      message: boom.message,
    });
    expect((await world.snapshotAsync()).ledger.map((e) => e.key)).toEqual(['ref-1']);
  });

  it('forgets a key after the retention window, measured on virtual time', async () => {
    const db = database();
    const clock = new VirtualClock(0);
    const world = await createPostgresWorld(db.pool, clock, { orders: { retentionMs: 60_000 } }, ['orders'], {
      id: 'expiry',
    });
    await deliver(world, 'create_order', order, { request: 'r1', idempotencyKey: 'k' });
    expect(await clock.run(() => clock.sleep(59_999))).toMatchObject({ kind: 'settled' });
    expect(await deliver(world, 'create_order', order, { request: 'r2', idempotencyKey: 'k' })).toEqual(created);
    expect(await clock.run(() => clock.sleep(1))).toMatchObject({ kind: 'settled' });
    // 60 s after the first request the key is new again: the resend runs and makes a second order.
    expect(await deliver(world, 'create_order', order, { request: 'r3', idempotencyKey: 'k' })).toEqual({
      ...created,
      orderId: 'ord-2',
    });
    expect((await world.snapshotAsync()).ledger.map((e) => [e.seq, e.at, e.request])).toEqual([
      [0, 0, 'r1'],
      [1, 60_000, 'r3'],
    ]);
  });

  it('refuses a concurrent duplicate with 409 while the first is processing, on virtual time', async () => {
    const db = database();
    const clock = new VirtualClock(1_000);
    const world = await createPostgresWorld(db.pool, clock, { orders: { processingMs: 200 } }, ['orders'], {
      id: 'inflight',
    });
    const run = await clock.run(async () => {
      const first = deliver(world, 'create_order', order, { request: 'req-1', idempotencyKey: 'k' });
      const second = deliver(world, 'create_order', order, { request: 'req-1', idempotencyKey: 'k' }).catch(
        (e: unknown) => e,
      );
      await clock.sleep(100);
      const pending = await queryStatus(
        world,
        'create_order',
        { op: 'o', idempotencyKey: 'k', input: order },
        { request: 's' },
      );
      return { first: await first, second: await second, pending, at: clock.now() };
    });
    expect(run).toMatchObject({ kind: 'settled' });
    if (run.kind !== 'settled') return;
    expect(run.value.first).toEqual(created);
    expect(run.value.second).toMatchObject({ status: 409 });
    expect(run.value.pending).toEqual({ state: 'pending' });
    expect(run.value.at).toBe(1_200);
    expect((await world.snapshotAsync()).ledger.map((e) => [e.at, e.effect])).toEqual([[1_200, 'order.created']]);
  });

  it('claims a key once per live window, and binds it to its fingerprint (the table alone)', async () => {
    const db = database();
    const clock = new VirtualClock(0);
    const pdb = new PgDatabase(db.pool, clock);
    await ensureWorldSchema(pdb);
    const table = new PgIdempotencyTable(pdb, 'table-only', 'svc', clock, { retentionMs: 10 });
    const fp = requestFingerprint('t', { a: 1 });
    let runs = 0;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => table.execute('k', fp, () => Promise.resolve(++runs)).catch((e: unknown) => e)),
    );
    expect(runs).toBe(1);
    expect(
      results.filter((r) => r === 1).length + results.filter((r) => r instanceof HttpError && r.status === 409).length,
    ).toBe(20);
    expect(await table.execute('k', fp, () => Promise.resolve(++runs))).toBe(1);
    expect(await table.claim('k', fp, 10)).toEqual({ kind: 'claimed', key: 'k' });
    expect(await table.execute(undefined, fp, () => Promise.resolve(++runs))).toBe(2);
  });
});
