/**
 * What network latency costs: wall time per delivery on the in-process wire without a network
 * and with N(10 ms, 2 ms) on both legs, one request after another and 1,000 at once, and one
 * whole trial each way. Prints numbers; asserts nothing.
 *   npm run bench latency
 */
import { History, Rng, VirtualClock } from '../src/core/index.js';
import { NetworkLatency, type Network } from '../src/faults/network.js';
import { Wire } from '../src/faults/Wire.js';
import { createWorld } from '../src/world/createWorld.js';
import { defineScenario, type ScenarioInput } from '../src/scenario/scenario.js';
import { runTrial } from '../src/runner/trial.js';
import { rulebookDefault } from '../src/runtime/config.js';
import { measure, printRow } from './measure.js';
import { orderThenPay } from './orderThenPay.js';

const seconds = Number(process.env['BENCH_SECONDS'] ?? 1);
const N = 1_000;
const NORMAL: Network = { latency: { kind: 'normal', meanMs: 10, sdMs: 2 } };

/** `N` find_order_by_reference reads through a fresh wire, sequentially or all at once. */
async function deliveries(network: Network | undefined, concurrent: boolean): Promise<void> {
  const clock = new VirtualClock(0);
  const world = createWorld(clock, {}, ['orders']);
  const history = new History(clock);
  const rng = new Rng(1);
  const latency = network && new NetworkLatency(network, rng.fork('network'));
  const wire = new Wire({
    world,
    plan: [],
    clock,
    rng: rng.fork('faults'),
    history,
    startMs: 0,
    ...(latency && { network: latency }),
  });
  const send = (i: number) =>
    wire.send({
      request: `req-${i}`,
      tool: 'find_order_by_reference',
      purpose: 'call',
      input: { clientReference: `ref-${i}` },
      call: `call-${i}`,
      attempt: 1,
    });
  await clock.run(async () => {
    if (concurrent) await Promise.all(Array.from({ length: N }, (_, i) => send(i)));
    else for (let i = 0; i < N; i++) await send(i);
  });
}

const rows = [
  await measure(`${N} deliveries one after another, no network`, () => deliveries(undefined, false), seconds * 1_000),
  await measure(
    `${N} deliveries one after another, N(10, 2) both legs`,
    () => deliveries(NORMAL, false),
    seconds * 1_000,
  ),
  await measure(`${N} deliveries at once, no network`, () => deliveries(undefined, true), seconds * 1_000),
  await measure(`${N} deliveries at once, N(10, 2) both legs`, () => deliveries(NORMAL, true), seconds * 1_000),
];
for (const r of rows) printRow(r);
// The median run, per delivery: on a loaded machine the mean is mostly other work.
for (const r of rows) console.log(`# ${r.name}: ${(r.p50Us / N).toFixed(1)} µs per delivery (median run)`);

const scenario = (network?: ScenarioInput['network']) =>
  defineScenario({ ...orderThenPay, ...(network && { network }) });
const plain = scenario();
const slow = scenario(NORMAL);
printRow(
  await measure(
    'trial (two calls), no network',
    () => runTrial({ scenario: plain, config: rulebookDefault, runSeed: 1, trialIndex: 0 }),
    seconds * 1_000,
  ),
);
printRow(
  await measure(
    'trial (two calls), N(10, 2) both legs',
    () => runTrial({ scenario: slow, config: rulebookDefault, runSeed: 1, trialIndex: 0 }),
    seconds * 1_000,
  ),
);
