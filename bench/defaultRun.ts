/**
 * The default `faultline run` (the built-in library, 60 trials) from the built CLI, start to
 * exit, beside the same run on one worker thread (what the default was before issue 25) and
 * beside a Node process that only starts and exits. The three alternate, so the machine's other
 * load weighs on each alike. Prints wall and CPU time (the child's user + system) per variant,
 * medians, with the load average; asserts nothing.
 *   npm run build && npx tsx bench/defaultRun.ts        (RUNS=… rounds, default 5)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const runs = Number(process.env['RUNS'] ?? 5);
const bin = fileURLToPath(new URL('../bin/faultline.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'faultline-bench-default-'));
const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');

const variants: readonly { readonly name: string; readonly args: readonly string[] }[] = [
  { name: 'node -e "" (start and exit)', args: ['-e', ''] },
  { name: 'faultline run (the default)', args: [bin, 'run', '--out', 'default'] },
  { name: 'faultline run --workers 1', args: [bin, 'run', '--workers', '1', '--out', 'one-worker'] },
  { name: 'faultline run --workers 0', args: [bin, 'run', '--workers', '0', '--out', 'in-process'] },
];

/** Wall and CPU seconds of one child, from GNU time's report on stderr's last line. */
function once(args: readonly string[]): { wall: number; cpu: number } {
  const r = spawnSync('/usr/bin/time', ['-f', 'BENCH %e %U %S', process.execPath, ...args], { cwd: dir, encoding: 'utf8' });
  const line = r.stderr.split('\n').find((l) => l.startsWith('BENCH '));
  if (line === undefined) throw new Error(`no timing for ${args.join(' ')}: ${r.stderr.slice(-500)}`);
  const [, wall, user, sys] = line.split(' ').map(Number) as [number, number, number, number];
  return { wall, cpu: user + sys };
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`default run: ${runs} rounds, the variants alternating (${process.version}, ${process.platform}/${process.arch}); load average before ${load()}`);
const samples = variants.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
try {
  for (let round = 0; round < runs; round++) {
    variants.forEach((v, i) => {
      const t = once(v.args);
      samples[i]!.wall.push(t.wall);
      samples[i]!.cpu.push(t.cpu);
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
variants.forEach((v, i) => {
  const s = samples[i]!;
  console.log(`  ${v.name.padEnd(32)} wall p50 ${median(s.wall).toFixed(2)} s (min ${Math.min(...s.wall).toFixed(2)})   cpu p50 ${median(s.cpu).toFixed(2)} s (min ${Math.min(...s.cpu).toFixed(2)})`);
});
const [, def, one] = samples;
console.log(`# default / one worker: wall ${(median(def!.wall) / median(one!.wall)).toFixed(2)}x, cpu ${(median(def!.cpu) / median(one!.cpu)).toFixed(2)}x (p50); load average after ${load()}`);
