/**
 * Workers that scale (issue 25): `faultline run --k 400` (15 scenarios, 6,000 trials) from the
 * built CLI in process (`--workers 0`), on 2 workers and with the default worker count, the
 * variants alternating, wall and CPU (the child's user + system) side by side with the ratio;
 * then the same matrix through the library's `runMatrix` on 2 workers, with the main thread's
 * share of the work: its event loop's busy time (`performance.eventLoopUtilization`) against
 * the CPU of every thread of the process. The load average is printed beside each figure: on a
 * shared machine wall time cannot show a speed-up that free cores would. Asserts nothing.
 *   npm run build && npx tsx bench/workers.ts        (K=… trials per cell, default 400; RUNS=… rounds, default 2)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type * as Library from '../src/runner/library.js';
import type * as Run from '../src/runner/run.js';

const k = Number(process.env['K'] ?? 400);
const runs = Number(process.env['RUNS'] ?? 2);
const bin = fileURLToPath(new URL('../bin/faultline.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'faultline-bench-workers-'));
const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const variants: readonly { readonly name: string; readonly args: readonly string[] }[] = [
  { name: '--workers 0 (in process)', args: ['--workers', '0'] },
  { name: '--workers 2', args: ['--workers', '2'] },
  { name: '(default worker count)', args: [] },
];

/** Wall and CPU seconds of one CLI run, from GNU time's report on stderr. */
function once(args: readonly string[]): { wall: number; cpu: number; load: string } {
  const r = spawnSync('/usr/bin/time', ['-f', 'BENCH %e %U %S', process.execPath, bin, 'run', '--k', String(k), '--reporter', 'json', '--out', 'out', ...args], { cwd: dir, encoding: 'utf8' });
  const line = r.stderr.split('\n').find((l) => l.startsWith('BENCH '));
  if (line === undefined) throw new Error(`no timing for ${args.join(' ')}: ${r.stderr.slice(-500)}`);
  const [, wall, user, sys] = line.split(' ').map(Number) as [number, number, number, number];
  return { wall, cpu: user + sys, load: load() };
}

console.log(`faultline run --k ${k}: ${runs} rounds, alternating (${process.version}, ${availableParallelism()} cores); load average before ${load()}`);
const samples = variants.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
try {
  for (let round = 0; round < runs; round++) {
    variants.forEach((v, i) => {
      const t = once(v.args);
      samples[i]!.wall.push(t.wall);
      samples[i]!.cpu.push(t.cpu);
      console.log(`  round ${round + 1} ${v.name.padEnd(26)} wall ${t.wall.toFixed(2).padStart(6)} s   cpu ${t.cpu.toFixed(2).padStart(6)} s   load ${t.load}`);
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
variants.forEach((v, i) => {
  const s = samples[i]!;
  console.log(`  ${v.name.padEnd(26)} wall p50 ${median(s.wall).toFixed(2)} s (min ${Math.min(...s.wall).toFixed(2)})   cpu p50 ${median(s.cpu).toFixed(2)} s`);
});
const [inProcess, two, def] = samples;
console.log(
  `# in process / 2 workers: ${(median(inProcess!.wall) / median(two!.wall)).toFixed(2)}x wall (best ${(Math.min(...inProcess!.wall) / Math.min(...two!.wall)).toFixed(2)}x); in process / default: ${(median(inProcess!.wall) / median(def!.wall)).toFixed(2)}x; load average ${load()}`,
);

// The main thread's share, through the library built into dist/ (so the workers run the same .js).
const { loadConfigs, loadScenarios } = (await import('../dist/runner/library.js')) as typeof Library;
const { runMatrix } = (await import('../dist/runner/run.js')) as typeof Run;
const scenarios = await loadScenarios();
const configs = await loadConfigs(['rulebook']);
for (const workers of [2, 1]) {
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const run = await runMatrix({ scenarios, configs, k, seed: 1, workers, keepFailures: 5 });
  const wall = performance.now() - t0;
  const elu = performance.eventLoopUtilization(elu0);
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1_000;
  const trials = run.cells.reduce((a, c) => a + c.metrics.trials, 0);
  console.log(
    `runMatrix on ${workers} worker${workers > 1 ? 's' : ''}: ${trials} trials in ${wall.toFixed(0)} ms; main thread busy ${elu.active.toFixed(0)} ms (${((elu.active / wall) * 100).toFixed(1)} % of wall) of ${cpuMs.toFixed(0)} ms CPU in all threads: main thread's share ${((elu.active / cpuMs) * 100).toFixed(1)} %; load ${load()}`,
  );
}
