/**
 * Workers that scale (issue 25): `faultline run --k 400` (19 scenarios, 7,600 trials) from the
 * built CLI in process (`--workers 0`), on 2 workers, with the default worker count, and two
 * in-process runs at once (the machine's ceiling for two-way parallelism on this work: 2 × one
 * run's wall / the pair's), the variants alternating, wall and CPU (the child's user + system)
 * side by side with the ratios;
 * then the same matrix through the library's `runMatrix` on 2 workers, with the main thread's
 * share of the work: its event loop's busy time (`performance.eventLoopUtilization`) against
 * the CPU of every thread of the process, and each thread's own CPU (`/proc`, Linux): the main
 * thread's per trial against a worker's per trial (issue 44's target: ≤ 0.1). The load average is printed beside each figure: on a
 * shared machine wall time cannot show a speed-up that free cores would. Asserts nothing.
 * With `BEFORE=<root of another built checkout>` each CLI variant runs from there too.
 *   npm run build && npm run bench workers        (K=… trials per cell, default 400; RUNS=… rounds, default 2)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type * as Library from '../src/scenario/library.js';
import type * as Run from '../src/runner/run.js';
import { alternate, loadAverage as load, median, withBefore, type NodeVariant } from './measure.js';
import { mainThreadCpuMs, withThreadCpu } from './threadCpu.js';

const k = Number(process.env['K'] ?? 400);
// SKIP_CLI=1: only the in-process runMatrix figures (the per-thread CPU), not the CLI variants.
const skipCli = process.env['SKIP_CLI'] === '1';
const runs = Number(process.env['RUNS'] ?? 2);
const bin = fileURLToPath(new URL('../bin/faultline.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'faultline-bench-workers-'));

const cli = (name: string, args: readonly string[], out = 'out'): NodeVariant => ({
  name,
  args: [bin, 'run', '--k', String(k), '--reporter', 'json', '--out', out, ...args],
});
// The machine's ceiling for two-way parallelism on this very work: two in-process runs at once, each writing
// its own reports, against one alone. A run in process already keeps a second core partly busy (V8's
// collector and compiler threads), and two runs share caches and memory bandwidth: 2 workers cannot beat it.
const PAIR = 'two in-process runs side by side';
const pair: NodeVariant = {
  ...cli(PAIR, ['--workers', '0'], 'out-a'),
  beside: [cli(PAIR, ['--workers', '0'], 'out-b').args],
};
const variants: readonly NodeVariant[] = [
  ...withBefore(
    [
      cli('--workers 0 (in process)', ['--workers', '0']),
      cli('--workers 2', ['--workers', '2']),
      cli('(default worker count)', []),
    ],
    bin,
  ),
  pair,
];

/** The CLI variants, alternating, and their ratios. */
function cliFigures(): void {
  console.log(
    `faultline run --k ${k}: ${runs} rounds, alternating (${process.version}, ${availableParallelism()} cores); load average before ${load()}`,
  );
  let samples: ReturnType<typeof alternate>;
  try {
    samples = alternate(variants, runs, dir, (round, v, t) =>
      console.log(
        `  round ${round + 1} ${v.name.padEnd(34)} wall ${t.wall.toFixed(2).padStart(6)} s   cpu ${t.cpu.toFixed(2).padStart(6)} s   load ${t.load}`,
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  variants.forEach((v, i) => {
    const s = samples[i]!;
    console.log(
      `  ${v.name.padEnd(34)} wall p50 ${median(s.wall).toFixed(2)} s (min ${Math.min(...s.wall).toFixed(2)})   cpu p50 ${median(s.cpu).toFixed(2)} s`,
    );
  });
  const at = (name: string): { wall: number[]; cpu: number[] } => samples[variants.findIndex((v) => v.name === name)]!;
  const [inProcess, two, def, both] = [
    at('--workers 0 (in process)'),
    at('--workers 2'),
    at('(default worker count)'),
    at(PAIR),
  ];
  const ceiling = (2 * median(inProcess.wall)) / median(both.wall);
  const twoRatio = median(inProcess.wall) / median(two.wall);
  console.log(
    `# in process / 2 workers: ${twoRatio.toFixed(2)}x wall (best ${(Math.min(...inProcess.wall) / Math.min(...two.wall)).toFixed(2)}x); in process / default: ${(median(inProcess.wall) / median(def.wall)).toFixed(2)}x; load average ${load()}`,
  );
  console.log(
    `# the machine's ceiling for two-way parallelism (2 × in process / two in-process runs side by side): ${ceiling.toFixed(2)}x wall, CPU per run ${(median(both.cpu) / 2).toFixed(2)} s side by side against ${median(inProcess.cpu).toFixed(2)} s alone; 2 workers reach ${((twoRatio / ceiling) * 100).toFixed(0)} % of it`,
  );
}
if (skipCli) rmSync(dir, { recursive: true, force: true });
else cliFigures();

// The main thread's share, through the library built into dist/ (so the workers run the same .js).
// A computed specifier: type-checking a fresh clone, before any build, must not need dist/ (the types come from src/).
const dist = new URL('../dist/', import.meta.url).href;
const { loadConfigs, loadScenarios } = (await import(`${dist}scenario/library.js`)) as typeof Library;
const { runMatrix } = (await import(`${dist}runner/run.js`)) as typeof Run;
const scenarios = await loadScenarios();
const configs = await loadConfigs(['rulebook']);
for (const workers of [2, 1]) {
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  // The main thread's CPU when the last trial is in: what dispatching and tallying cost, before the run's figures
  // (the rate intervals' Monte Carlo over every cell, which cannot start before the last trial).
  const mainAtStart = mainThreadCpuMs();
  let mainAtLast = Number.NaN;
  const { result: run, cpu: threads } = await withThreadCpu(() =>
    runMatrix({
      scenarios,
      configs,
      k,
      seed: 1,
      workers,
      keepFailures: 5,
      onTrial: (_trial, done, total) => {
        if (done === total) mainAtLast = mainThreadCpuMs();
      },
    }),
  );
  const wall = performance.now() - t0;
  const elu = performance.eventLoopUtilization(elu0);
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1_000;
  const trials = run.cells.reduce((a, c) => a + c.metrics.trials, 0);
  console.log(
    `runMatrix on ${workers} worker${workers > 1 ? 's' : ''}: ${trials} trials in ${wall.toFixed(0)} ms; main thread busy ${elu.active.toFixed(0)} ms (${((elu.active / wall) * 100).toFixed(1)} % of wall) of ${cpuMs.toFixed(0)} ms CPU in all threads: main thread's share ${((elu.active / cpuMs) * 100).toFixed(1)} %; load ${load()}`,
  );
  // Issue 44: what the main thread costs per trial against what a trial costs a worker. The workers are the threads the
  // run started (the n busiest: libuv's pool may start a few idle ones); each ran about trials / n of them.
  const workerMs = threads.startedMs.slice(0, workers).reduce((a, b) => a + b, 0);
  const mainPerTrial = (threads.mainMs * 1_000) / trials;
  const trialsMs = mainAtLast - mainAtStart;
  const workerPerTrial = (workerMs * 1_000) / trials;
  console.log(
    `  per-thread CPU (/proc, ${threads.mainMs.toFixed(0)} ms main, ${threads.startedMs
      .slice(0, workers)
      .map((ms) => ms.toFixed(0))
      .join(
        ' + ',
      )} ms workers, ${threads.otherMs.toFixed(0)} ms V8 and libuv threads): main thread ${mainPerTrial.toFixed(0)} µs per trial, a worker ${workerPerTrial.toFixed(0)} µs per trial: main / worker ${(mainPerTrial / workerPerTrial).toFixed(3)} (target ≤ 0.1); until the last trial was in (the run's figures after it: ${(threads.mainMs - trialsMs).toFixed(0)} ms) main ${((trialsMs * 1_000) / trials).toFixed(0)} µs per trial, main / worker ${((trialsMs * 1_000) / trials / workerPerTrial).toFixed(3)}`,
  );
}
