import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import type { TimerHandle } from './Clock.js';
import { VirtualClock } from './VirtualClock.js';

/** One timer of a generated program: set at the start (parent -1) or by an earlier timer's callback, which may also clear others. */
interface Spec {
  readonly ms: number;
  /** A sleep without a signal (nothing can clear it) instead of a `setTimer`. */
  readonly sleep: boolean;
  readonly parent: number;
  readonly clears: readonly number[];
}

const program = fc
  .array(
    fc.record({
      // Far timers too (an attempt's timeout at the task deadline), so cleared ones pile up and the heap is rebuilt.
      ms: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.constant(3_600_000)),
      sleep: fc.boolean(),
      parentBack: fc.nat(),
      clears: fc.array(fc.nat(), { maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 200 },
  )
  .map((raw) =>
    raw.map(({ ms, sleep, parentBack, clears }, k): Spec => ({
      ms,
      sleep,
      parent: k === 0 || parentBack % 3 === 0 ? -1 : parentBack % k,
      clears: clears.map((c) => c % raw.length),
    })),
  );

/** What the clock should do, simulated plainly: the live timer earliest by (time, order set) fires next. */
function reference(specs: readonly Spec[]): string[] {
  type Entry = { k: number; at: number; seq: number; live: boolean };
  const entries = new Map<number, Entry>();
  const queue: Entry[] = [];
  let seq = 0;
  let now = 0;
  const set = (k: number): void => {
    const e = { k, at: now + specs[k]!.ms, seq: seq++, live: true };
    entries.set(k, e);
    queue.push(e);
  };
  const log: string[] = [];
  specs.forEach((s, k) => s.parent === -1 && set(k));
  for (;;) {
    let next: Entry | undefined;
    for (const e of queue) if (e.live && (!next || e.at < next.at || (e.at === next.at && e.seq < next.seq))) next = e;
    if (!next) return log;
    next.live = false;
    now = next.at;
    log.push(`${next.k}@${now} pending ${queue.filter((e) => e.live).length}`);
    specs.forEach((s, k) => s.parent === next.k && set(k));
    for (const c of specs[next.k]!.clears) {
      const e = entries.get(c);
      if (e && !specs[c]!.sleep) e.live = false;
    }
  }
}

async function onClock(specs: readonly Spec[]): Promise<string[]> {
  const clock = new VirtualClock();
  const handles = new Map<number, TimerHandle>();
  const log: string[] = [];
  const set = (k: number): void => {
    const fired = (): void => {
      log.push(`${k}@${clock.now()} pending ${clock.pending}`);
      specs.forEach((s, child) => s.parent === k && set(child));
      for (const c of specs[k]!.clears) {
        const h = handles.get(c);
        if (h !== undefined) clock.clearTimer(h);
      }
    };
    const s = specs[k]!;
    if (s.sleep) void clock.sleep(s.ms).then(fired);
    else handles.set(k, clock.setTimer(s.ms, fired));
  };
  await clock.run(async () => {
    specs.forEach((s, k) => s.parent === -1 && set(k));
    // The body waits for every timer: the run ends once none is left.
    await new Promise<never>(() => {});
  });
  return log;
}

describe('VirtualClock timer order', () => {
  test.prop([program], { numRuns: 200 })(
    'fires the live timer earliest by (time, order set), clears what is cleared, and counts what is pending',
    async (specs) => {
      expect(await onClock(specs)).toEqual(reference(specs));
    },
  );
});
