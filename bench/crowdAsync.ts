/**
 * The same contention as bench/crowdFloor.ts written as async code, the way an agent's code
 * awaits its tool calls: 100 async clients, each awaiting a timer per network leg and per
 * backoff (N(10 ms, 2 ms) legs, four per attempt, the occ-* waits). No faultline: no world,
 * wire, history or checkers. Two clocks drive them:
 *
 * - `fake-timers`: @sinonjs/fake-timers' `runAllAsync` (what vi.useFakeTimers runs on), the
 *   alternative a user would pick to simulate it by hand. It counts whole milliseconds, so ties
 *   fall otherwise and the delivery counts differ a little: compare per delivery.
 * - `heap`: the least any async simulation pays: crowdFloor's heap of pending sleeps, each a promise
 *   resolved when it is due, and one `setImmediate` per fire so the woken client's microtasks
 *   run before the next fire (as a virtual clock must: it cannot see when they are done).
 *
 * It splits faultline's distance from the bare event loop in two: what awaiting promises and
 * timers costs any async code (these against the floor), and what faultline adds on top of
 * that (faultline against these).
 *   npm run bench crowdAsync          (TRIALS=… trials per strategy and clock, default 20)
 */
import { createClock } from '@sinonjs/fake-timers';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { backoffWait, CLIENTS, EventHeap, generator, normalLeg, STRATEGIES, type Strategy } from './crowdFloor.js';

export type AsyncClock = 'fake-timers' | 'heap';
export const ASYNC_CLOCKS: readonly AsyncClock[] = ['heap', 'fake-timers'];

export interface AsyncTrial {
  /** Writes delivered to the record: one per attempt. */
  readonly deliveries: number;
  readonly commits: number;
}

interface Driver {
  sleep(ms: number): Promise<void>;
  /** Fires every sleep, earliest first, until none is left. */
  runAll(): Promise<void>;
}

function fakeTimersDriver(): Driver {
  // runAllAsync stops at 1,000 timers by default, taking a long run for an endless loop; a trial fires about 4,000.
  const clock = createClock(0, 1_000_000);
  return {
    sleep: (ms) => new Promise((resolve) => clock.setTimeout(() => resolve(), ms)),
    runAll: async () => void (await clock.runAllAsync()),
  };
}

function heapDriver(): Driver {
  const heap = new EventHeap<() => void>();
  const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  return {
    sleep: (ms) => new Promise((resolve) => heap.push(heap.at + ms, resolve)),
    runAll: async () => {
      await turn();
      while (heap.size > 0) {
        heap.pop()();
        await turn();
      }
    },
  };
}

/** One trial of the contention as async clients on `clock`: every client writes once, retrying each conflict until it wins. */
export async function asyncTrial(strategy: Strategy, seed: number, clock: AsyncClock): Promise<AsyncTrial> {
  const random = generator(seed);
  const driver = clock === 'heap' ? heapDriver() : fakeTimersDriver();
  let version = 0;
  let deliveries = 0;
  let commits = 0;
  const client = async (): Promise<void> => {
    let previous = 0;
    for (let retry = 1; ; retry++) {
      await driver.sleep(normalLeg(random)); // the request travels
      deliveries++;
      const read = version;
      await driver.sleep(normalLeg(random) + normalLeg(random)); // the read's answer goes back, the write comes in
      const won = version === read;
      if (won) {
        version++;
        commits++;
      }
      await driver.sleep(normalLeg(random)); // the write's answer goes back
      if (won) return;
      previous = backoffWait(strategy, retry, previous, random);
      await driver.sleep(previous);
    }
  };
  const clients = Array.from({ length: CLIENTS }, client);
  await driver.runAll();
  await Promise.all(clients);
  return { deliveries, commits };
}

/** CPU µs per trial and per delivery of `trials` trials (after a warm-up), with their mean deliveries. */
export async function measureAsync(
  strategy: Strategy,
  clock: AsyncClock,
  trials: number,
): Promise<{ readonly usPerTrial: number; readonly usPerDelivery: number; readonly deliveries: number }> {
  for (let i = 0; i < 3; i++) await asyncTrial(strategy, 1_000 + i, clock);
  let deliveries = 0;
  const before = process.cpuUsage();
  for (let i = 0; i < trials; i++) {
    const t = await asyncTrial(strategy, i + 1, clock);
    if (t.commits !== CLIENTS)
      throw new Error(`${clock} trial ${i + 1} under ${strategy}: ${t.commits} commits of ${CLIENTS}`);
    deliveries += t.deliveries;
  }
  const used = process.cpuUsage(before);
  const us = used.user + used.system;
  return { usPerTrial: us / trials, usPerDelivery: us / deliveries, deliveries: deliveries / trials };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const trials = Number(process.env['TRIALS'] ?? 20);
  console.log(
    `crowd as async code: ${CLIENTS} async clients, one record, N(10 ms, 2 ms) legs, ${trials} trials per strategy and clock; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const { strategy, config } of STRATEGIES) {
    for (const clock of ASYNC_CLOCKS) {
      const m = await measureAsync(strategy, clock, trials);
      console.log(
        `  ${config.padEnd(24)} ${clock.padEnd(12)} ${m.usPerTrial.toFixed(0).padStart(7)} µs CPU per trial  ${m.usPerDelivery.toFixed(2).padStart(6)} µs per delivery  ${m.deliveries.toFixed(0).padStart(6)} deliveries`,
      );
    }
  }
}
