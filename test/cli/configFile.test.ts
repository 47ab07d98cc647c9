import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseJsonReport } from '../../src/report/index.js';
import { faultline, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir('config-file');
  // The folder resolves `faultline` as a user's project does, to the built package (through its exports).
  await mkdir(join(dir.path, 'node_modules'));
  await symlink(REPO, join(dir.path, 'node_modules', 'faultline'), 'dir');
  await mkdir(join(dir.path, 'faultline', 'scenarios'), { recursive: true });
  for (const name of ['payment-quota-exceeded', 'read-timeout-retry']) {
    await writeFile(
      join(dir.path, 'faultline', 'scenarios', `${name}.yaml`),
      await readFile(join(REPO, 'scenarios', `${name}.yaml`), 'utf8'),
    );
  }
});
afterEach(() => dir.cleanup());

// The first case runs the real binary; the others run the CLI's entry in this process (./inProcess.ts).
const run = (args: readonly string[]) => inProcess(args, { cwd: dir.path });
const write = (file: string, text: string): Promise<void> => writeFile(join(dir.path, file), text);
const report = async (out: string) => parseJsonReport(await readFile(join(dir.path, out, 'faultline.json'), 'utf8'));

const CONFIG = `import { defineConfig } from 'faultline';

export default defineConfig({
  scenarios: ['faultline/scenarios/*.yaml'],
  retryConfigs: ['naive'],
  k: 2,
  seed: 7,
  reporters: ['console', 'json'],
  outDir: 'faultline-reports',
  gates: ['duplicates==0'],
});
`;

describe('faultline.config.ts', () => {
  it('is found in the working folder and sets scenarios (a glob), configurations, k, seed, reporters, folder and gates', async () => {
    await write('faultline.config.ts', CONFIG);
    const r = await faultline(['run'], { cwd: dir.path });
    expect(r.stderr).not.toMatch(/error|warning/i);
    // Only duplicates==0 is gated, and naive makes no duplicate on these two: the failing pass^k is not a gate here.
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('reports: faultline-reports/faultline.json');
    const json = await report('faultline-reports');
    expect(json.run).toMatchObject({
      seed: 7,
      k: 2,
      scenarios: ['payment-quota-exceeded', 'read-timeout-retry'],
      configs: ['naive'],
    });
    expect(json.gates.results.map((g) => g.gate)).toEqual(['duplicates==0', 'unexercised==0']);
    expect(r.stdout).toContain(
      'replay: faultline replay faultline/scenarios/payment-quota-exceeded.yaml --config naive --seed 7 --trial 0',
    );
  });

  it('loses to flags and positional scenarios typed on the command line', async () => {
    await write('faultline.config.ts', CONFIG);
    const r = await run([
      'run',
      'read-timeout-retry',
      '--k',
      '1',
      '--seed',
      '3',
      '--config',
      'rulebook',
      '--out',
      'cli-out',
      '--gate',
      'pass^1>=1',
    ]);
    expect(r.code).toBe(0);
    const json = await report('cli-out');
    expect(json.run).toMatchObject({ seed: 3, k: 1, scenarios: ['read-timeout-retry'], configs: ['rulebook'] });
    expect(json.gates.results.map((g) => g.gate)).toEqual(['pass^1>=1', 'unexercised==0']);
  });

  it('applies to compare as well', async () => {
    await write('faultline.config.ts', CONFIG);
    const r = await run(['compare', '--config', 'rulebook', '--config', 'naive', '--reporter', 'json']);
    expect(r.code).toBe(0);
    expect((await report('faultline-reports')).run).toMatchObject({ k: 2, seed: 7, configs: ['rulebook', 'naive'] });
  });

  it('--config-file names another file, whose relative paths are read from its own folder', async () => {
    await mkdir(join(dir.path, 'ci'));
    await write(
      'ci/nightly.config.mjs',
      `export default { scenarios: ['../faultline/scenarios/read-timeout-retry.yaml'], k: 3, outDir: 'nightly', reporters: ['json'] };\n`,
    );
    const r = await run(['run', '--config-file', 'ci/nightly.config.mjs']);
    expect(r.code).toBe(0);
    expect((await report('ci/nightly')).run).toMatchObject({ k: 3, scenarios: ['read-timeout-retry'] });
  });

  it('without a config file, the built-in defaults apply', async () => {
    const r = await run(['run', 'read-timeout-retry', '--reporter', 'json']);
    expect(r.code).toBe(0);
    expect((await report('reports')).run).toMatchObject({ k: 4, seed: 1, configs: ['rulebook'] });
  });

  it.each([
    ['k: 0', { k: 0 }, /faultline\.config\.ts: invalid faultline config:\n {2}- k: .*>=1/],
    [
      'an unknown key',
      { retries: ['naive'] },
      /faultline\.config\.ts: invalid faultline config:\n {2}- \(root\): Unrecognized key: "retries"/,
    ],
    ['a bad gate', { gates: ['duplicates==0', 'pass^k>>1'] }, /- gates\[1\]: .*pass\^k>>1/],
    ['an unknown reporter', { reporters: ['pdf'] }, /- reporters\[0\]: /],
    [
      'a glob that matches nothing',
      { scenarios: ['nowhere/*.yaml'] },
      /- scenarios\[0\]: the pattern "nowhere\/\*\.yaml" matches no file/,
    ],
  ])('refuses %s with exit 2, naming the file and the path inside it', async (_what, config, message) => {
    await write('faultline.config.ts', `export default ${JSON.stringify(config)};\n`);
    const r = await run(['run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a gate refused for too few trials names where k came from: the config file, or --k when typed', async () => {
    await write('faultline.config.ts', CONFIG);
    const fromFile = await run(['run', '--gate', 'pass^5>=1']);
    expect(fromFile.code, fromFile.stderr).toBe(2);
    expect(fromFile.stderr).toMatch(
      /^error: --gate pass\^5>=1 can never hold: pass\^5 needs at least 5 trials per cell, and this run has k = 2 \(from \S*faultline\.config\.ts: k\)$/m,
    );
    const bound = await run(['run', '--gate', 'pass^2>=0.9@95%']);
    expect(bound.code, bound.stderr).toBe(2);
    expect(bound.stderr).toMatch(
      /it needs n ≥ \d+ trials per cell \(--k \d+\), and this run has k = 2 \(from \S*faultline\.config\.ts: k\)$/m,
    );
    const typed = await run(['run', '--gate', 'pass^5>=1', '--k', '3']);
    expect(typed.code, typed.stderr).toBe(2);
    expect(typed.stderr).toMatch(/and this run has --k 3$/m);
    const sweep = await run(['sweep', '--gate', 'pass^5>=1', '--lambda', '0']);
    expect(sweep.code, sweep.stderr).toBe(2);
    expect(sweep.stderr).toMatch(
      /pass\^5 needs at least 5 trials per cell, and this run has k = 2 \(from \S*faultline\.config\.ts: k\)$/m,
    );
  });

  it('refuses a file that fails to load, and a missing --config-file, with exit 2', async () => {
    await write('faultline.config.ts', 'export default { k: ;\n');
    const broken = await run(['run']);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/faultline\.config\.ts: the module failed to load/);
    const missing = await run(['run', '--config-file', 'nope.config.ts']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--config-file nope.config.ts: no such file');
  });
});
