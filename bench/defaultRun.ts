/**
 * The default `faultline run` (the built-in library: 19 scenarios, 76 trials) from the built CLI,
 * start to exit, beside the same run on one worker thread (what the default was before issue 25),
 * in process, and beside a Node process that only starts and exits. The variants alternate, so
 * the machine's other load weighs on each alike. Prints wall and CPU time (the child's user +
 * system) per variant, medians, with the load average; asserts nothing. With `BEFORE=<root of
 * another built checkout>` each faultline variant runs from there too, right after this one's.
 *   npm run build && npm run bench defaultRun        (RUNS=… rounds, default 5)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alternate, loadAverage, median, printMedians, withBefore, type NodeVariant } from './measure.js';

const runs = Number(process.env['RUNS'] ?? 5);
const bin = fileURLToPath(new URL('../bin/faultline.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'faultline-bench-default-'));

const variants: readonly NodeVariant[] = withBefore(
  [
    { name: 'node -e "" (start and exit)', args: ['-e', ''] },
    { name: 'faultline run (the default)', args: [bin, 'run', '--out', 'default'] },
    { name: 'faultline run --workers 1', args: [bin, 'run', '--workers', '1', '--out', 'one-worker'] },
    { name: 'faultline run --workers 0', args: [bin, 'run', '--workers', '0', '--out', 'in-process'] },
  ],
  bin,
);

console.log(
  `default run: ${runs} rounds, the variants alternating (${process.version}, ${process.platform}/${process.arch}); load average before ${loadAverage()}`,
);
let samples: ReturnType<typeof alternate>;
try {
  samples = alternate(variants, runs, dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
printMedians(variants, samples, 40);
const at = (name: string): { wall: number[]; cpu: number[] } | undefined =>
  samples[variants.findIndex((v) => v.name === name)];
const def = at('faultline run (the default)')!;
const one = at('faultline run --workers 1')!;
console.log(
  `# default / one worker: wall ${(median(def.wall) / median(one.wall)).toFixed(2)}x, cpu ${(median(def.cpu) / median(one.cpu)).toFixed(2)}x (p50)`,
);
const before = at('before: faultline run (the default)');
if (before)
  console.log(
    `# default, after / before: wall ${(median(def.wall) / median(before.wall)).toFixed(2)}x, cpu ${(median(def.cpu) / median(before.cpu)).toFixed(2)}x (p50)`,
  );
console.log(`# load average after ${loadAverage()}`);
