/**
 * vitest globalSetup: the end-to-end tests run the real `bin/faultline.js`, which runs the
 * compiled CLI in dist/ exactly as an installed package does. So dist/ must match src/ before
 * any test starts: this runs the (incremental) package build once, in vitest's main process,
 * whenever a source is newer than the last build, so no test ever runs a stale CLI.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const STAMP = join(ROOT, 'dist', '.tsbuildinfo');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const builtAt = (): number => {
  try {
    return statSync(STAMP).mtimeMs;
  } catch {
    return -1;
  }
};

export default function buildDist(): void {
  const sources = Math.max(
    newestSource(join(ROOT, 'src')),
    ...['tsconfig.json', 'tsconfig.build.json'].map((f) => statSync(join(ROOT, f)).mtimeMs),
  );
  if (builtAt() >= sources) return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'pipe' });
  } catch (error) {
    // tsc still emits on a type error; `npm run typecheck` is where type errors fail the build.
    process.stderr.write(
      `buildDist: tsc reported errors (dist/ was still written):\n${String((error as { stdout?: unknown }).stdout ?? error)}\n`,
    );
  }
  // The rest of `npm run build`: the built-in YAML files parsed at build time.
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'yamlCache.mjs')], { cwd: ROOT, stdio: 'pipe' });
  // tsc leaves its build info alone when nothing changed (a checkout that only touched files).
  const now = new Date();
  utimesSync(STAMP, now, now);
}
