#!/usr/bin/env node
/**
 * `npm run bench [name] [-- args]`: runs bench/<name>.ts (default `run`) with the modules it
 * imports from src/ loaded from the built dist/ (./onDist.mjs): the code users install.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [name = 'run', ...rest] = process.argv.slice(2);
const file = fileURLToPath(new URL(`${name.replace(/\.ts$/, '')}.ts`, import.meta.url));
if (!existsSync(file)) {
  console.error(`bench: no benchmark ${file}`);
  process.exit(2);
}
const onDist = new URL('onDist.mjs', import.meta.url).href;
const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', onDist, file, ...rest], { stdio: 'inherit' });
process.exit(r.status ?? 1);
