/**
 * The built-in library on 1 and 2 worker threads (and in process, for reference), at
 * >= 1,000 trials: wall time, trials per second and the speed-up. Worker start-up (tsx and
 * the scenario files, per worker) is included: it is part of what a run costs.
 * CPU time (every thread of the process) is printed beside wall time: on a machine whose cores
 * are busy with other work, wall time cannot show a speed-up that CPU time per trial can.
 * Prints numbers; asserts nothing.
 *   npx tsx bench/workers.ts            (K=… trials per cell; 15 scenarios × 4 configurations)
 */
import { wallMs } from '../src/core/clock/RealClock.js';
import { loadConfigs, loadScenarios } from '../src/runner/library.js';
import { runMatrix } from '../src/runner/run.js';

const k = Number(process.env['K'] ?? 20);
const scenarios = await loadScenarios();
const configs = await loadConfigs(['rulebook', 'naive', 'no-retry', 'full-jitter-budget']);
const total = scenarios.length * configs.length * k;

const walls = new Map<number, number>();
for (const workers of [0, 1, 2, 1, 2]) {
  const t0 = wallMs();
  const cpu0 = process.cpuUsage();
  const run = await runMatrix({ scenarios, configs, k, seed: 1, workers, keepFailures: 5 });
  const wall = wallMs() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1_000;
  const trials = run.cells.reduce((a, c) => a + c.metrics.trials, 0);
  if (trials !== total) throw new Error(`ran ${trials} of ${total} trials`);
  walls.set(workers, Math.min(walls.get(workers) ?? Infinity, wall));
  console.log(`${workers === 0 ? 'in process' : `${workers} worker${workers > 1 ? 's' : ''}`}`.padEnd(12) + `${total} trials in ${wall.toFixed(0).padStart(6)} ms: ${((total / wall) * 1_000).toFixed(0).padStart(5)} trials/s; CPU ${cpuMs.toFixed(0).padStart(6)} ms (${((cpuMs * 1_000) / total).toFixed(0)} µs per trial, ${(cpuMs / wall).toFixed(2)} cores busy)`);
}
console.log(`# speed-up on 2 workers vs 1 (best of two runs each): ${(walls.get(1)! / walls.get(2)!).toFixed(2)}x at ${total} trials; 1 worker vs in process: ${(walls.get(0)! / walls.get(1)!).toFixed(2)}x`);
