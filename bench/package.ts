/**
 * The package as a new user meets it, timed: `npm pack` (prepack builds from scratch), the
 * tarball's file count and size, then in a fresh project outside the repository the wall time
 * from `npm i <tarball>` (from the npm cache) through `npx faultline init` to the first green
 * `npx faultline run`. Prints numbers; asserts nothing.
 *   npm run bench:package
 */
import { createConsumer, pack, repoVersion } from '../test/package/consumer.js';
import { wallMs } from '../src/core/clock/RealClock.js';

const time = async <T>(what: string, f: () => Promise<T>): Promise<T> => {
  const start = wallMs();
  const value = await f();
  console.log(`${what.padEnd(44)} ${((wallMs() - start) / 1000).toFixed(1).padStart(6)} s`);
  return value;
};

const packed = await time('npm pack (prepack: clean build with tsc)', pack);
const project = await createConsumer();
try {
  console.log(
    `tarball: ${packed.files.length} files, ${(packed.size / 1000).toFixed(1)} kB packed, ${(packed.unpackedSize / 1000).toFixed(1)} kB unpacked`,
  );
  const start = wallMs();
  await time('npm i <tarball> @types/node (prefer-offline)', async () =>
    project.install([packed.tarball, `@types/node@${await repoVersion('@types/node')}`]),
  );
  const init = await time('npx faultline init', () => project.npx(['faultline', 'init']));
  const run = await time('npx faultline run (first run)', () => project.npx(['faultline', 'run']));
  if (init.code !== 0 || run.code !== 0)
    throw new Error(`init exited ${init.code}, run exited ${run.code}:\n${run.stdout}${run.stderr}`);
  console.log(
    `${'npm i → first green faultline run'.padEnd(44)} ${((wallMs() - start) / 1000).toFixed(1).padStart(6)} s`,
  );
  const second = await time('npx faultline run (again)', () => project.npx(['faultline', 'run']));
  if (second.code !== 0) throw new Error('the second run failed');
  await time('npm i vitest vite msw nock (the optional peers)', async () =>
    project.install(
      await Promise.all(['vitest', 'vite', 'msw', 'nock'].map(async (p) => `${p}@${await repoVersion(p)}`)),
    ),
  );
} finally {
  await project.cleanup();
  await packed.cleanup();
}
