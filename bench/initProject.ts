/**
 * `faultline run` in the project `faultline init` writes (a TypeScript service, agent, scenario
 * and config; the agent runs on a worker in a process of its own), start to exit, in a CommonJS
 * package (what `npm init` writes: no "type") beside the same files in an ES-module package.
 * A CommonJS package's .ts files require faultline: until tsx's handler was kept off faultline's
 * own files (src/scenario/ownModulesNative.ts), that compiled the package again in the CLI and in
 * the worker. The variants alternate; wall and CPU (the process and its children) per variant,
 * medians, with the load average; asserts nothing. With `BEFORE=<root of another built
 * checkout>` each variant runs again from there, in projects of its own that install that one.
 *   npm run build && npm run bench initProject        (RUNS=… rounds, default 5)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alternate, loadAverage, median, printMedians, type NodeVariant } from './measure.js';

const runs = Number(process.env['RUNS'] ?? 5);
const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'faultline-bench-init-'));

/** A project in `dir/name` with `checkout` installed as its faultline, and `faultline init` run in it. */
function project(name: string, checkout: string, packageJson: string): string {
  const path = join(dir, name);
  mkdirSync(join(path, 'node_modules'), { recursive: true });
  symlinkSync(checkout, join(path, 'node_modules', 'faultline'), 'dir');
  // The packages faultline depends on, as npm would have installed them beside it.
  for (const dep of readdirSync(join(root, 'node_modules')))
    if (!dep.startsWith('.')) symlinkSync(join(root, 'node_modules', dep), join(path, 'node_modules', dep), 'dir');
  writeFileSync(join(path, 'package.json'), `${packageJson}\n`);
  const init = spawnSync(process.execPath, [join(checkout, 'bin', 'faultline.js'), 'init'], { cwd: path });
  if (init.status !== 0) throw new Error(`faultline init in ${path}: ${init.stderr}`);
  return path;
}

const checkouts: [string, string][] = [['', root]];
const before = process.env['BEFORE'];
if (before !== undefined && before !== '') checkouts.push(['before: ', before]);
const variants: NodeVariant[] = [{ name: 'node -e "" (start and exit)', args: ['-e', ''] }];
checkouts.forEach(([label, checkout], i) => {
  for (const [kind, pkg] of [
    ['CommonJS package', '{ "name": "shop" }'],
    ['ES-module package', '{ "name": "shop", "type": "module" }'],
  ] as const) {
    const cwd = project(`${i}-${kind.split(' ')[0]}`, checkout, pkg);
    variants.push({
      name: `${label}faultline run, ${kind}`,
      args: [join(checkout, 'bin', 'faultline.js'), 'run'],
      cwd,
    });
  }
});

console.log(
  `init project run: ${runs} rounds, the variants alternating (${process.version}, ${process.platform}/${process.arch}); load average before ${loadAverage()}`,
);
let samples: ReturnType<typeof alternate>;
try {
  samples = alternate(variants, runs, dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
printMedians(variants, samples, 44);
const cpu = (name: string): number => median(samples[variants.findIndex((v) => v.name === name)]!.cpu);
console.log(
  `# CommonJS / ES module, cpu p50: ${(cpu('faultline run, CommonJS package') / cpu('faultline run, ES-module package')).toFixed(2)}x`,
);
if (checkouts.length > 1)
  console.log(
    `# CommonJS package, after / before, cpu p50: ${(cpu('faultline run, CommonJS package') / cpu('before: faultline run, CommonJS package')).toFixed(2)}x`,
  );
console.log(`# load average after ${loadAverage()}`);
