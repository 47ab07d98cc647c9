/**
 * Wall time of the one trial runner at scale: 1,000 agents in one trial × 5 configurations, on
 * the built-in records service (optimistic concurrency, writers spread over 50 records), judged
 * by the checkers and tallied as `faultline run` tallies a cell. Prints numbers; asserts nothing.
 * Then AWS's backoff experiment (scenarios/crowds/backoff-jitter-occ.yaml: 100 clients, one
 * record, N(10 ms, 2 ms) legs) under its five occ-* strategies, each trial's CPU time and time
 * per delivery beside bench/crowdFloor.ts's bare event loop on the same contention, and the ratio,
 * and beside the same contention as async code (bench/crowdAsync.ts: on a heap, on fake timers).
 *   npm run bench:crowds            (AGENTS=… to change the crowd, OCC_TRIALS=… trials per strategy)
 */
import { wallMs } from '../src/core/clock/RealClock.js';
import { CellTally } from '../src/stats/CellTally.js';
import { defineScenario } from '../src/scenario/scenario.js';
import { runTrial, summarise } from '../src/runner/trial.js';
import { loadavg } from 'node:os';
import { crowdConfig, crowdScenario } from '../test/crowds/crowd.js';
import { measureFloor, STRATEGIES } from './crowdFloor.js';
import { measureAsync } from './crowdAsync.js';
import type * as TrialModule from '../src/runner/trial.js';
import type * as ScenarioModule from '../src/scenario/scenario.js';
import type * as LibraryModule from '../src/scenario/library.js';

const agents = Number(process.env['AGENTS'] ?? 1_000);
const CONFIGS = [
  'exponential-no-jitter',
  'full-jitter',
  'decorrelated-jitter',
  'cockatiel-decorrelated',
  'p-retry-randomized',
];

const scenario = defineScenario({
  name: 'bench-optimistic',
  services: ['records'],
  world: { records: { transactionMs: 10 } },
  agents,
  agent: {
    kind: 'function',
    task: 'Write your record.',
    fn: async ({ agent, tools }) => {
      const r = await tools['update_record']!({ record: `rec-${agent % 50}`, writer: `w-${agent}`, value: agent });
      return { outcome: r.kind === 'ok' ? 'completed' : 'failed' };
    },
  },
  // retry-discipline reads a retried 409 as a retried permanent error; these configurations retry conflicts on purpose.
  checks: ['goal-state', 'budget', 'duplicates', 'amplification', 'honesty', 'secrets'],
  budget: { maxAttemptsPerCall: 10, maxDeliveriesPerOperation: 10, deadlineMs: 600_000 },
});

const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(
  `crowds: ${agents} agents × ${CONFIGS.length} configurations on one records service, 50 records (${process.version}, ${process.platform}/${process.arch}); load average ${load()}`,
);
const started = wallMs();
let runs = 0;
for (const name of CONFIGS) {
  const config = await crowdConfig(name);
  const before = wallMs();
  const trial = await runTrial({ scenario, config, runSeed: 1, trialIndex: 0 });
  const wall = wallMs() - before;
  const tally = new CellTally(scenario.name, name, { scenario: scenario.name, config: name }, 1);
  tally.add(summarise(trial, false));
  const m = tally.cell().metrics;
  const crowd = m.crowd!;
  runs += crowd.agents;
  console.log(
    `  ${name.padEnd(24)} ${String(Math.round(wall)).padStart(6)} ms wall  ${String(trial.history.length).padStart(7)} events  ${String(m.deliveries).padStart(6)} deliveries  ` +
      `success ${crowd.successRate.toFixed(3)}  p95 ${(crowd.completionMs.p95 / 1000).toFixed(1).padStart(6)} s virtual  ${trial.status}`,
  );
}
const total = wallMs() - started;
const rss = process.memoryUsage().rss / 2 ** 20;
console.log(
  `total ${Math.round(total)} ms wall for ${runs} agent runs (${((total * 1000) / runs).toFixed(0)} µs per agent), rss ${rss.toFixed(0)} MB`,
);

// The floor: the same contention as a bare event loop, measured in this process beside faultline's trials.
const occTrials = Number(process.env['OCC_TRIALS'] ?? 3);
const occ = await crowdScenario('backoff-jitter-occ');
console.log(
  `occ: ${occ.name}, ${occTrials} trial(s) per strategy; faultline's CPU beside the bare event loop's (bench/crowdFloor.ts); load average ${load()}`,
);
for (const { strategy, config: name } of STRATEGIES) {
  const config = await crowdConfig(name);
  await runTrial({ scenario: occ, config, runSeed: 99, trialIndex: 0 }); // warm-up
  let deliveries = 0;
  const before = process.cpuUsage();
  for (let i = 0; i < occTrials; i++) {
    const trial = await runTrial({ scenario: occ, config, runSeed: 1, trialIndex: i });
    const tally = new CellTally(occ.name, name, { scenario: occ.name, config: name }, 1);
    tally.add(summarise(trial, false));
    deliveries += tally.cell().metrics.deliveries;
  }
  const used = process.cpuUsage(before);
  const usTrial = (used.user + used.system) / occTrials;
  const usDelivery = (used.user + used.system) / deliveries;
  const floor = measureFloor(strategy, 100);
  // The same contention as async clients (bench/crowdAsync.ts): what awaiting a timer per leg costs any async code.
  const heap = await measureAsync(strategy, 'heap', 10);
  const fake = await measureAsync(strategy, 'fake-timers', 10);
  const perDelivery = (us: number): string => `${us.toFixed(2).padStart(5)} µs`;
  console.log(
    `  ${name.padEnd(24)} faultline ${(usTrial / 1000).toFixed(1).padStart(7)} ms CPU/trial ${usDelivery.toFixed(1).padStart(6)} µs/delivery (${Math.round(deliveries / occTrials)} deliveries)  ` +
      `floor ${(floor.usPerTrial / 1000).toFixed(2).padStart(6)} ms/trial ${floor.usPerDelivery.toFixed(2).padStart(5)} µs/delivery (${Math.round(floor.deliveries)})  ratio ${(usTrial / floor.usPerTrial).toFixed(0)}x per trial, ${(usDelivery / floor.usPerDelivery).toFixed(0)}x per delivery`,
  );
  console.log(
    `  ${''.padEnd(24)} as async code, per delivery: on a heap ${perDelivery(heap.usPerDelivery)} (${(heap.usPerDelivery / floor.usPerDelivery).toFixed(1)}x the floor; faultline ${(usDelivery / heap.usPerDelivery).toFixed(1)}x it), ` +
      `on fake timers ${perDelivery(fake.usPerDelivery)} (${(fake.usPerDelivery / floor.usPerDelivery).toFixed(1)}x the floor; faultline ${(usDelivery / fake.usPerDelivery).toFixed(1)}x it)`,
  );
}
console.log(`load average after ${load()}`);

// With BEFORE=<root of another built checkout>: the 1,000-agent crowd and the OCC trial under
// occ-full-jitter from its dist/ and this checkout's, alternating round by round, CPU only.
const beforeRoot = process.env['BEFORE'];
if (beforeRoot !== undefined && beforeRoot !== '') {
  type Side = { readonly name: string; readonly crowd: () => Promise<number>; readonly occ: () => Promise<number> };
  const side = async (name: string, root: string): Promise<Side> => {
    const { runTrial: run } = (await import(`${root}/dist/runner/trial.js`)) as typeof TrialModule;
    const { defineScenario: define } = (await import(`${root}/dist/scenario/scenario.js`)) as typeof ScenarioModule;
    const { loadConfigs, loadScenarios } = (await import(`${root}/dist/scenario/library.js`)) as typeof LibraryModule;
    const crowd = define({ ...scenario, agents });
    const configs = await loadConfigs(CONFIGS);
    const [occScenario] = await loadScenarios(['backoff-jitter-occ']);
    const [occConfig] = await loadConfigs(['occ-full-jitter']);
    const deliveries = (history: readonly { readonly type: string }[]): number =>
      history.filter((e) => e.type === 'delivery').length;
    return {
      name,
      crowd: async () => {
        let n = 0;
        for (const config of configs)
          n += deliveries((await run({ scenario: crowd, config, runSeed: 1, trialIndex: 0 })).history);
        return n;
      },
      occ: async () => {
        let n = 0;
        for (let i = 0; i < occTrials; i++)
          n += deliveries(
            (await run({ scenario: occScenario!, config: occConfig!, runSeed: 1, trialIndex: i })).history,
          );
        return n;
      },
    };
  };
  const sides = [
    await side('before', beforeRoot),
    await side('after (dist/)', new URL('..', import.meta.url).pathname.replace(/\/$/, '')),
  ];
  const cpuOf = async (fn: () => Promise<number>): Promise<{ ms: number; deliveries: number }> => {
    const c0 = process.cpuUsage();
    const n = await fn();
    const c = process.cpuUsage(c0);
    return { ms: (c.user + c.system) / 1000, deliveries: n };
  };
  for (const s of sides) await s.occ(); // warm-up
  const rounds = Number(process.env['ROUNDS'] ?? 3);
  const crowdMs = sides.map(() => [] as number[]);
  const occUs = sides.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    const parts: string[] = [];
    for (const [i, s] of sides.entries()) {
      const c = await cpuOf(s.crowd);
      const o = await cpuOf(s.occ);
      crowdMs[i]!.push(c.ms);
      occUs[i]!.push((o.ms * 1000) / o.deliveries);
      parts.push(
        `${s.name}: crowd ${(c.ms / 1000).toFixed(2)} s CPU (${((c.ms * 1000) / c.deliveries).toFixed(0)} µs/delivery), occ-full-jitter ${occUs[i]!.at(-1)!.toFixed(0)} µs/delivery`,
      );
    }
    console.log(`  round ${round + 1}: ${parts.join('; ')}; load ${load()}`);
  }
  const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const [b, a] = [0, 1].map((i) => ({ crowd: med(crowdMs[i]!), occ: med(occUs[i]!) }));
  console.log(
    `# before/after, medians of ${rounds} rounds: ${agents} agents × ${CONFIGS.length} configurations ${(b!.crowd / 1000).toFixed(2)} → ${(a!.crowd / 1000).toFixed(2)} s CPU (${(a!.crowd / b!.crowd).toFixed(2)}x); ` +
      `OCC × occ-full-jitter ${b!.occ.toFixed(0)} → ${a!.occ.toFixed(0)} µs CPU per delivery (${(a!.occ / b!.occ).toFixed(2)}x); load ${load()}`,
  );
}
