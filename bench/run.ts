/**
 * faultline's benchmarks. Prints numbers; asserts nothing (tests do not time things).
 *   npm run bench
 */
import { defineScenario } from '../src/scenario/scenario.js';
import { runTrial } from '../src/runner/trial.js';
import { runMatrix } from '../src/runner/run.js';
import { loadConfigs, loadScenarios } from '../src/scenario/library.js';
import { rulebookDefault } from '../src/runtime/config.js';
import { patient, tenMinutes } from './tenMinutes.js';
import { orderThenPay } from './orderThenPay.js';
import { createWorld } from '../src/world/createWorld.js';
import { VirtualClock } from '../src/core/index.js';
import { BUILTIN_CHECKERS } from '../src/checks/index.js';
import type * as TrialModule from '../src/runner/trial.js';
import type * as ScenarioModule from '../src/scenario/scenario.js';
import type * as ConfigModule from '../src/runtime/config.js';
import { alternateInProcess, loadAverage, measure, printRow } from './measure.js';

const seconds = Number(process.env['BENCH_SECONDS'] ?? 1);

// 1. A trial whose backoffs add up to ten virtual minutes: ten 60 s waits between eleven attempts.
const check = await runTrial({ scenario: tenMinutes, config: patient, runSeed: 1, trialIndex: 0 });
const waited = check.history
  .filter((e) => e.type === 'retry_wait')
  .reduce((a, e) => a + (e.type === 'retry_wait' ? e.ms : 0), 0);
console.log(
  `# trial with ${waited / 60_000} virtual minutes of backoff: status ${check.status}, ${check.history.length} events, virtual duration ${check.stats.durationMs / 1000}s`,
);
printRow(
  await measure(
    'trial: 10 virtual minutes of backoff (wall time)',
    () => runTrial({ scenario: tenMinutes, config: patient, runSeed: 1, trialIndex: 0 }),
    seconds * 1_000,
  ),
);

// 2. Trials per second over the built-in library under every built-in configuration.
const library = await loadScenarios();
const configs = await loadConfigs(['rulebook', 'naive', 'no-retry', 'full-jitter-budget']);
const k = 8;
const t0 = performance.now();
const run = await runMatrix({ scenarios: library, configs, k, seed: 1 });
const wall = performance.now() - t0;
const trials = run.cells.reduce((a, c) => a + c.metrics.trials, 0);
console.log(
  `# mixed: ${library.length} scenarios × ${configs.length} configurations × k=${k} = ${trials} trials in ${wall.toFixed(0)} ms: ${((trials / wall) * 1_000).toFixed(0)} trials/s`,
);

// 3. The harness's overhead: a fault-free trial against a bare loop calling the same tool functions.
const plain = defineScenario(orderThenPay);
let sink = 0;
async function bare(): Promise<void> {
  const clock = new VirtualClock(Date.parse(plain.startTime));
  const world = createWorld(clock, plain.world);
  const tools = new Map(world.tools.map((t) => [t.name, t]));
  const ctx = { world, clock, request: 'req-1' };
  const order = (await tools
    .get('create_order')!
    .run({ clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 }, ctx)) as { orderId: string };
  await tools
    .get('charge_payment')!
    .run({ paymentReference: 'pay-1', orderId: order.orderId, amountCents: 1500, currency: 'EUR' }, ctx);
  sink += world.ledger.length;
}
const bareRow = await measure('bare loop: the same two tool calls, no harness', bare, seconds * 1_000);
const trialRow = await measure(
  `trial: wire + runtime + agent loop + history + ${BUILTIN_CHECKERS.length} checkers`,
  () => runTrial({ scenario: plain, config: rulebookDefault, runSeed: 1, trialIndex: 0 }),
  seconds * 1_000,
);
printRow(bareRow);
printRow(trialRow);
console.log(
  `# overhead: trial / bare = ${(trialRow.p50Us / bareRow.p50Us).toFixed(1)}x (p50), ${(trialRow.p50Us - bareRow.p50Us).toFixed(0)} µs per trial; ledger sink ${sink > 0 ? 'ok' : 'empty'}`,
);

// 4. With BEFORE=<root of another built checkout>: the same fault-free trial from its dist/ and
// this checkout's, and the bare loop, alternating round by round (CPU µs per trial, p50 wall).
const before = process.env['BEFORE'];
if (before !== undefined && before !== '') {
  const side = async (root: string): Promise<() => Promise<unknown>> => {
    const { runTrial: run } = (await import(`${root}/dist/runner/trial.js`)) as typeof TrialModule;
    const { defineScenario: define } = (await import(`${root}/dist/scenario/scenario.js`)) as typeof ScenarioModule;
    const { rulebookDefault: rulebook } = (await import(`${root}/dist/runtime/config.js`)) as typeof ConfigModule;
    const scenario = define(orderThenPay);
    return () => run({ scenario, config: rulebook, runSeed: 1, trialIndex: 0 });
  };
  const sides: readonly { readonly name: string; readonly fn: () => Promise<unknown> }[] = [
    { name: 'bare loop', fn: bare },
    { name: 'trial, before', fn: await side(before) },
    { name: 'trial, after (dist/)', fn: await side(new URL('..', import.meta.url).pathname.replace(/\/$/, '')) },
  ];
  const rounds = Number(process.env['ROUNDS'] ?? 7);
  const [b, tb, ta] = await alternateInProcess(sides, rounds, seconds * 500);
  console.log(
    `# before/after, medians of ${rounds} rounds: CPU per trial ${tb!.cpu.toFixed(0)} → ${ta!.cpu.toFixed(0)} µs (${(ta!.cpu / tb!.cpu).toFixed(2)}x); trial / bare p50 ${(tb!.p50 / b!.p50).toFixed(1)}x → ${(ta!.p50 / b!.p50).toFixed(1)}x (bare ${b!.p50.toFixed(0)} µs); load ${loadAverage()}`,
  );
}
