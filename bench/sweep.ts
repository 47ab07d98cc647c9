/**
 * `faultline sweep` as the CLI runs it by default: the built-in library, every built-in
 * configuration, rate_limit and unavailable at λ 0, 0.1 … 0.5, in process and on 1 and 2
 * workers (each point starts its own pool: that start-up is part of what a sweep costs).
 * Prints wall time, CPU time and trials per second; asserts nothing.
 *   npm run bench sweep            (K=… trials per cell at each λ, default 4)
 */
import { wallMs } from '../src/core/clock/RealClock.js';
import { loadConfigs, loadScenarios } from '../src/scenario/library.js';
import { DEFAULT_LAMBDAS } from '../src/sweep/lambdaGrid.js';
import { runSweep, sweepTrials } from '../src/sweep/runSweep.js';
import { parseSweepFault, sweepSeries, type SweepFault } from '../src/sweep/sweepFaults.js';

const k = Number(process.env['K'] ?? 4);
const scenarios = await loadScenarios();
const configs = await loadConfigs(['rulebook', 'full-jitter-budget', 'naive', 'no-retry']);
const faults = ['rate_limit', 'unavailable'].map((text): SweepFault => {
  const parsed = parseSweepFault(text);
  if (parsed.kind === 'error') throw new Error(parsed.message);
  return parsed.fault;
});
const series = sweepSeries(faults, false);
if (typeof series === 'string') throw new Error(series);
const options = { scenarios, configs, k, seed: 1, lambdas: DEFAULT_LAMBDAS, series, target: 'call' as const };
const total = sweepTrials(options);

console.log(
  `${scenarios.length} scenarios × ${configs.length} configurations × k = ${k} × ${DEFAULT_LAMBDAS.length} λ × ${series.length} series = ${total} trials`,
);
for (const workers of [0, 1, 2, 0]) {
  const t0 = wallMs();
  const cpu0 = process.cpuUsage();
  const result = await runSweep({ ...options, workers: () => workers });
  const wall = wallMs() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1_000;
  const trials = result.series.reduce(
    (a, s) => a + s.points.reduce((b, p) => b + p.run.cells.reduce((c, cell) => c + cell.metrics.trials, 0), 0),
    0,
  );
  if (trials !== total) throw new Error(`ran ${trials} of ${total} trials`);
  const label = workers === 0 ? 'in process' : `${workers} worker${workers > 1 ? 's' : ''}`;
  console.log(
    `${label.padEnd(12)}${total} trials in ${wall.toFixed(0).padStart(6)} ms: ${((total / wall) * 1_000).toFixed(0).padStart(5)} trials/s; CPU ${cpuMs.toFixed(0).padStart(6)} ms (${((cpuMs * 1_000) / total).toFixed(0)} µs per trial)`,
  );
}
