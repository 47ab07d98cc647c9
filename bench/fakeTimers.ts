/**
 * The ten-virtual-minute trial against @sinonjs/fake-timers (what vi.useFakeTimers runs on)
 * driving the same retry loop by hand: the same two tools on the same world, ten 503s on
 * get_payment, a fixed 60 s wait between its eleven attempts. Same process, same warm-up.
 * Prints numbers and the ratio; asserts nothing.
 *   npm run bench fakeTimers            (BENCH_SECONDS=… to measure longer)
 */
import { createClock } from '@sinonjs/fake-timers';
import { VirtualClock } from '../src/core/index.js';
import { runTrial } from '../src/runner/trial.js';
import { createWorld } from '../src/world/createWorld.js';
import { alternateInProcess, loadAverage, measure, printRow } from './measure.js';
import { patient, tenMinutes } from './tenMinutes.js';
import type * as TrialModule from '../src/runner/trial.js';
import type * as ScenarioModule from '../src/scenario/scenario.js';

const seconds = Number(process.env['BENCH_SECONDS'] ?? 1);
const start = Date.parse(tenMinutes.startTime);
let sink = 0;

/** The retry loop a hand-written test would run under fake timers. */
async function fakeTimersLoop(): Promise<void> {
  const fake = createClock(start);
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => fake.setTimeout(() => resolve(), ms));
  // The world reads the time through a Clock; a virtual one stands still while the fake timers run.
  const world = createWorld(new VirtualClock(start), tenMinutes.world);
  const tools = new Map(world.tools.map((t) => [t.name, t]));
  const ctx = { world, clock: new VirtualClock(start), request: 'req-1' };
  const done = (async () => {
    const payment = (await tools
      .get('charge_payment')!
      .run({ paymentReference: 'p-1', amountCents: 100, currency: 'EUR' }, ctx)) as { paymentId: string };
    for (let attempt = 1; ; attempt++) {
      if (attempt > 10) {
        await tools.get('get_payment')!.run({ paymentId: payment.paymentId }, ctx);
        return;
      }
      const error = Object.assign(new Error('503 Service Unavailable'), { status: 503 });
      if (error.status === 503) await sleep(60_000);
    }
  })();
  await fake.runAllAsync();
  await done;
  sink += fake.now - start;
}

const trial = await measure(
  'trial: 10 virtual minutes of backoff',
  () => runTrial({ scenario: tenMinutes, config: patient, runSeed: 1, trialIndex: 0 }),
  seconds * 1_000,
);
const fake = await measure('@sinonjs/fake-timers: the same retry loop', fakeTimersLoop, seconds * 1_000);
printRow(trial);
printRow(fake);
console.log(
  `# ten virtual minutes: trial / fake timers = ${(trial.p50Us / fake.p50Us).toFixed(1)}x (p50), ${(trial.meanUs / fake.meanUs).toFixed(1)}x (mean); fake clock advanced ${sink > 0 ? 'ok' : 'never'}`,
);

// With BEFORE=<root of another built checkout>: the trial from its dist/ and this checkout's, and
// the fake-timers loop, alternating round by round (p50 wall and CPU per run).
const beforeRoot = process.env['BEFORE'];
if (beforeRoot !== undefined && beforeRoot !== '') {
  const side = async (root: string): Promise<() => Promise<unknown>> => {
    const { runTrial: run } = (await import(`${root}/dist/runner/trial.js`)) as typeof TrialModule;
    const { defineScenario: define } = (await import(`${root}/dist/scenario/scenario.js`)) as typeof ScenarioModule;
    const scenario = define(tenMinutes);
    return () => run({ scenario, config: patient, runSeed: 1, trialIndex: 0 });
  };
  const sides = [
    { name: 'fake timers', fn: fakeTimersLoop },
    { name: 'trial, before', fn: await side(beforeRoot) },
    { name: 'trial, after (dist/)', fn: await side(new URL('..', import.meta.url).pathname.replace(/\/$/, '')) },
  ];
  const rounds = Number(process.env['ROUNDS'] ?? 7);
  const [f, tb, ta] = await alternateInProcess(sides, rounds, seconds * 500);
  console.log(
    `# before/after, medians of ${rounds} rounds: CPU per trial ${tb!.cpu.toFixed(0)} → ${ta!.cpu.toFixed(0)} µs (${(ta!.cpu / tb!.cpu).toFixed(2)}x); ` +
      `trial / fake timers p50 ${(tb!.p50 / f!.p50).toFixed(1)}x → ${(ta!.p50 / f!.p50).toFixed(1)}x (fake timers ${f!.p50.toFixed(0)} µs); load ${loadAverage()}`,
  );
}
