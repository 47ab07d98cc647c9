import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { HttpError, VirtualClock } from '../core/index.js';
import { applyFault, type FaultAnswers } from './applyFault.js';
import type { Fault } from './fault.js';
import { besideChains } from './microtaskOrder.testkit.js';

type Seen = string;

/** Answers as strings and records every delivery, so each fault's shape is exact. */
function recorder(): { answers: FaultAnswers<Seen>; deliveries: string[] } {
  const deliveries: string[] = [];
  return {
    deliveries,
    answers: {
      deliver: (copy, failure) => {
        deliveries.push(failure ? `${copy}:${failure instanceof HttpError ? failure.status : '?'}` : `${copy}`);
        return Promise.resolve(`ok${copy}`);
      },
      lost: (cause) => `lost:${cause}`,
      error: (error) => `error:${error.name}`,
      malformed: (answer) => `cut:${answer}`,
      lie: (fault) => Promise.resolve(`lie:${fault.kind}`),
    },
  };
}

describe('applyFault', () => {
  it("shapes each fault from the transport's answers", async () => {
    const cases: [Fault | undefined, Seen, string[]][] = [
      [undefined, 'ok0', ['0']],
      [{ kind: 'timeout' }, 'lost:timeout', []],
      [{ kind: 'partial_write', lostAs: 'timeout' }, 'lost:partial_write', ['0']],
      [{ kind: 'duplicate', copies: 2, concurrent: false }, 'ok0', ['0', '1']],
      [{ kind: 'server_error' }, 'ok0', ['0:500']],
      [{ kind: 'malformed' }, 'cut:ok0', ['0']],
      // A lie delivers through the transport's own `lie`, which delivers first.
      [{ kind: 'stale', lagMs: 5_000 }, 'lie:stale', []],
      [{ kind: 'empty' }, 'lie:empty', []],
      [{ kind: 'truncated', keep: 1 }, 'lie:truncated', []],
      [{ kind: 'wrong_value', path: 'status' }, 'lie:wrong_value', []],
    ];
    for (const [fault, answer, deliveries] of cases) {
      const r = recorder();
      const clock = new VirtualClock(0);
      expect(await applyFault(fault, r.answers, clock)).toBe(answer);
      expect(r.deliveries).toEqual(deliveries);
    }
  });

  it('delivers a latency fault at once and answers after the sleep', async () => {
    const r = recorder();
    const clock = new VirtualClock(0);
    const run = await clock.run(() => applyFault({ kind: 'latency', ms: 250 }, r.answers, clock));
    expect(run).toEqual({ kind: 'settled', value: 'ok0', at: 250 });
    expect(r.deliveries).toEqual(['0']);
  });
});

/**
 * Sends whose delivery takes `hops[i]` awaits (and fails when `fails[i]`), each awaited through `apply`, beside chains
 * of plain reactions: the order everything runs and settles in, logged.
 */
async function settleOrder(
  hops: readonly number[],
  fails: readonly boolean[],
  chains: readonly number[],
  apply: (deliver: () => Promise<string>) => Promise<string>,
): Promise<string[]> {
  const log: string[] = [];
  const sends = hops.map(async (n, i) => {
    const deliver = async (): Promise<string> => {
      log.push(`delivering ${i}`);
      for (let k = 0; k < n; k++) await Promise.resolve();
      if (fails[i]) throw new Error(`failed ${i}`);
      return `answer ${i}`;
    };
    try {
      log.push(`got ${await apply(deliver)}`);
    } catch (error) {
      log.push(`threw ${(error as Error).message}`);
    }
  });
  return besideChains(log, chains, sends);
}

describe('applyFault without a fault', () => {
  const clock = new VirtualClock();
  const viaApplyFault = (deliver: () => Promise<string>): Promise<string> =>
    applyFault<string>(
      undefined,
      { deliver, lost: () => 'lost', error: () => 'error', malformed: (a) => a, lie: () => Promise.resolve('lie') },
      clock,
    );
  // The wire's shortcut (Wire#deliverUnfaulted): an async function returning the delivery's promise.
  const direct = async (deliver: () => Promise<string>): Promise<string> => deliver();

  test.prop([
    fc.array(fc.record({ hops: fc.nat({ max: 4 }), fails: fc.boolean() }), { minLength: 1, maxLength: 5 }),
    fc.array(fc.nat({ max: 8 }), { maxLength: 4 }),
  ])(
    'settles every await at the same point of the microtask queue as an async function returning the delivery',
    async (sends, chains) => {
      const hops = sends.map((s) => s.hops);
      const fails = sends.map((s) => s.fails);
      expect(await settleOrder(hops, fails, chains, direct)).toEqual(
        await settleOrder(hops, fails, chains, viaApplyFault),
      );
    },
  );
});
