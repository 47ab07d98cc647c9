/**
 * `node --import tsx --import ./bench/onDist.mjs bench/<name>.ts`: the benchmark's own TypeScript
 * runs through tsx, and every module it imports from `src/` is loaded from `dist/` instead, so
 * what is timed is the compiled code users install, not tsx's transform of the sources (esbuild
 * keeps function names with a `__name(…)` call per closure created, which a hot path pays per
 * call). `BENCH_SRC=1` times the sources through tsx, as the benchmarks did before.
 */
import { existsSync, statSync } from 'node:fs';
import { register } from 'node:module';

const root = new URL('../', import.meta.url);
const src = new URL('src/', root).href;
const dist = new URL('dist/', root).href;

if (process.env['BENCH_SRC'] !== '1') {
  const marker = new URL('dist/runner/trial.js', root);
  if (!existsSync(marker)) {
    console.error(
      'bench: dist/ is missing: run `npm run build` first (or BENCH_SRC=1 to time the sources through tsx)',
    );
    process.exit(2);
  }
  const built = statSync(marker).mtimeMs;
  const edited = statSync(new URL('src/runner/trial.ts', root)).mtimeMs;
  if (edited > built)
    console.error('bench: warning: src/runner/trial.ts is newer than dist/: `npm run build` to time your edits');
  // Hooks registered later run first: this one asks tsx's (which maps `.js` to `.ts`), then points src/ at dist/.
  const hook = `
    export async function resolve(specifier, context, next) {
      const r = await next(specifier, context);
      return r.url.startsWith(${JSON.stringify(src)}) && r.url.endsWith('.ts') && !r.url.endsWith('.d.ts')
        ? { url: ${JSON.stringify(dist)} + r.url.slice(${src.length}, -3) + '.js', format: 'module', shortCircuit: true }
        : r;
    }`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
}
