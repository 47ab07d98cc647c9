import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from './VirtualClock.js';

/** Real work that ends after `n` real immediates: the first runs before the clock's first batch of turns, the rest during them. */
const immediates = (n: number): Promise<void> =>
  new Promise<void>((resolve) => {
    const step = (left: number): void => void (left === 0 ? resolve() : setImmediate(() => step(left - 1)));
    step(n);
  });

/**
 * One event of a generated program: a timer (`setTimer` or a sleep) or a turn in a lane, asked by the body (parent -1)
 * or by an earlier event's work.
 */
interface Spec {
  readonly kind: 'timer' | 'sleep' | 'turn';
  readonly ms: number;
  readonly lane: number;
  readonly parent: number;
}

const program = fc
  .array(
    fc.record({
      kind: fc.constantFrom('timer' as const, 'sleep' as const, 'turn' as const),
      ms: fc.integer({ min: 0, max: 2 }),
      lane: fc.integer({ min: 0, max: 3 }),
      parentBack: fc.nat(),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((raw) =>
    raw.map(({ kind, ms, lane, parentBack }, k): Spec => ({
      kind,
      ms,
      lane,
      parent: k === 0 || parentBack % 3 === 0 ? -1 : parentBack % k,
    })),
  );

/** The order the program's events happen in, with real work of `realImmediates` immediates held from the start (0: none). */
async function order(specs: readonly Spec[], realImmediates: number): Promise<string[]> {
  const clock = new VirtualClock();
  const log: string[] = [];
  const start = (k: number): void => {
    const s = specs[k]!;
    const fired = (): void => {
      log.push(`${k}@${clock.now()}`);
      specs.forEach((c, child) => c.parent === k && start(child));
    };
    if (s.kind === 'timer') clock.setTimer(s.ms, fired);
    else if (s.kind === 'sleep') void clock.sleep(s.ms).then(fired);
    else void clock.nextTurn(s.lane).then(fired);
  };
  await clock.run(async () => {
    if (realImmediates > 0) void clock.hold(immediates(realImmediates));
    specs.forEach((s, k) => s.parent === -1 && start(k));
    // The body waits for every event: the run ends once none is left (and the real work is done).
    await new Promise<never>(() => {});
  });
  return log;
}

describe('VirtualClock with real work in flight', () => {
  it('takes a turn after a timer due at the same instant that comes first, while a real immediate is pending', async () => {
    const seen: string[] = [];
    const clock = new VirtualClock();
    await clock.run(async () => {
      void clock.hold(immediates(3));
      // Both asked by the run's body at instant 0: the timer (lane -1) comes before the turn of lane 0.
      clock.setTimer(0, () => seen.push(`timer, held ${clock.inflight}`));
      await clock.nextTurn(0);
      seen.push(`turn, held ${clock.inflight}`);
    });
    expect(seen).toEqual(['timer, held 1', 'turn, held 1']);
  });

  test.prop([program, fc.integer({ min: 1, max: 150 })], { numRuns: 150 })(
    'happen in the same order whether or not real work is in flight, however long it lasts',
    async (specs, realImmediates) => {
      expect(await order(specs, realImmediates)).toEqual(await order(specs, 0));
    },
  );
});
