/**
 * `npm test`'s build step (scripts/checks.mjs runs this file): `npm pack` in the checkout itself,
 * whose prepack cleans dist/ and builds it, so one tsc build gives both the dist/ the suite runs
 * and the tarball the package tests install, stored where `packOnce` looks for it. Without this,
 * the first suite file to install the tarball built the package a second time, from a copy of
 * the sources (about 30 s of CPU on CI). When the cache already holds the tarball of these
 * sources, it only runs the (incremental) `npm run build`. A suite run without this step still
 * packs for itself, as before.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmPack, packOnce, REPO, run, type Packed } from './consumer.js';

/** `npm pack` in the repository: rebuilds its dist/ from scratch, the tarball in a fresh temp folder. */
export async function packRepository(): Promise<Packed> {
  return npmPack(REPO, await mkdtemp(join(tmpdir(), 'faultline-pack-')));
}

async function main(): Promise<number> {
  let packedHere = false;
  const packed = await packOnce(async () => {
    packedHere = true;
    return packRepository();
  });
  if (packedHere) {
    console.log(`packed ${packed.files.length} files into ${packed.tarball} (prepack built dist/)`);
    return 0;
  }
  const build = await run('npm', ['run', '--silent', 'build'], REPO);
  process.stdout.write(build.stdout + build.stderr);
  if (build.code === 0) console.log(`built dist/; the tarball of these sources was already packed: ${packed.tarball}`);
  return build.code;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  });
}
