import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, tempDir, type Finished } from './faultline.js';
import { userProject } from './userProject.js';

/**
 * The files `faultline explore` writes: named after their plan (two plans never share a file),
 * with no secret the scenario declares; and `-t`/`--grep` on explore and list.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('explore-files');
});
afterAll(() => dir.cleanup());

const run = (args: readonly string[]): Promise<Finished> => faultline(args, { cwd: dir.path });
const written = (r: Finished): string => /^ {4}regression: (\S+)/m.exec(r.stdout)?.[1] ?? `(none in ${r.stdout})`;

const SECRET = 'sk-live-0123456789abcdef';
/** order-partial-write-no-idempotency with a secret in its task (an agent that sent it anywhere would fail the secrets checker). */
const WITH_SECRETS = `name: secret-order
world:
  orders: { idempotency: false }
agent:
  kind: scripted
  task: Create order ref-300 for a lamp, paying with ${SECRET}.
  plan:
    steps:
      - tool: create_order
        input: { clientReference: ref-300, item: lamp, quantity: 1, amountCents: 4500 }
        subject: orders:ref-300
goal:
  effects: { order.created: 1 }
secrets: [${SECRET}]
`;

describe('faultline explore: regression files', () => {
  it('two searches of one scenario × configuration × seed that keep different regressions write two files, each reproducing its own', async () => {
    const all = await run(['explore', 'order-partial-write-no-idempotency', '--replace-faults', '--runs', '50', '--out', 'two']);
    const duplicates = await run(['explore', 'order-partial-write-no-idempotency', '--replace-faults', '--runs', '50', '--check', 'duplicates', '--out', 'two']);
    expect([all.code, duplicates.code], all.stdout + duplicates.stdout).toEqual([1, 1]);
    expect(written(all)).not.toBe(written(duplicates));
    expect((await readdir(join(dir.path, 'two'))).sort()).toEqual([written(all), written(duplicates)].map((f) => f.slice('two/'.length)).sort());
    for (const file of [written(all), written(duplicates)]) expect((await run(['run', file, '--config', 'rulebook', '--seed', '1', '--reporter', 'console'])).code, file).toBe(1);

    // The same search again writes the same bytes to the same file, and says so.
    const again = await run(['explore', 'order-partial-write-no-idempotency', '--replace-faults', '--runs', '50', '--out', 'two']);
    expect(written(again)).toBe(written(all));
    expect(again.stdout).toContain('(unchanged: the same plan was kept before)');
    // A different file under that name (edited by hand) is replaced, and the output says so.
    await writeFile(join(dir.path, written(all)), '# edited\n');
    const replaced = await run(['explore', 'order-partial-write-no-idempotency', '--replace-faults', '--runs', '50', '--out', 'two']);
    expect(replaced.stdout).toContain(`regression: ${written(all)} (replaced a different file of the same name)`);
  }, 180_000);

  it("keeps the scenario's secrets out of a YAML regression file, redacted in its task, and the file still fails under run", async () => {
    await writeFile(join(dir.path, 'secret-order.yaml'), WITH_SECRETS);
    const r = await run(['explore', './secret-order.yaml', '--replace-faults', '--runs', '50', '--out', 'secret']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const text = await readFile(join(dir.path, written(r)), 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).toContain('paying with [REDACTED]');
    expect(text).not.toMatch(/^secrets:/m);
    expect(text).toContain("The scenario's secrets are left out");
    expect((await run(['run', written(r), '--config', 'rulebook', '--seed', '1', '--reporter', 'console'])).code).toBe(1);
  }, 120_000);
});

describe('-t / --grep on explore and list', () => {
  it('explore -t explores only the scenarios whose name matches; no match is refused with exit 2', async () => {
    const r = await run(['explore', '-t', '^read-timeout-retry$', '--runs', '3']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('1 scenario × 1 configuration');
    expect(r.stdout).toContain('✓ read-timeout-retry × rulebook: 3 plans, none failed');
    const none = await run(['explore', '--grep', 'no-such-scenario', '--runs', '3']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--grep no-such-scenario matches no scenario');
  }, 60_000);

  it('list -t lists only the matching scenarios (with --configs, configurations)', async () => {
    const r = await run(['list', '-t', 'rate-limit', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const names = (JSON.parse(r.stdout) as { name: string }[]).map((s) => s.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => n.includes('rate-limit'))).toBe(true);
    const configs = await run(['list', '--configs', '--grep', '^naive$', '--json']);
    expect((JSON.parse(configs.stdout) as { name: string }[]).map((c) => c.name)).toEqual(['naive']);
    expect((await run(['list', '-t', 'no-such-scenario'])).code).toBe(2);
  }, 60_000);
});

describe('explore and sweep read faultline.config.ts as run does', () => {
  const CONFIG = `import { defineConfig } from 'faultline';

export default defineConfig({
  scenarios: ['read-timeout-retry'],
  retryConfigs: ['naive'],
  k: 2,
  seed: 7,
  outDir: 'from-config',
});
`;
  let project: Awaited<ReturnType<typeof userProject>>;
  beforeAll(async () => {
    project = await userProject('explore-config', { 'faultline.config.ts': CONFIG });
  });
  afterAll(() => project.cleanup());

  it('explore: its scenarios, retry configurations and seed; flags typed win', async () => {
    const r = await faultline(['explore', '--runs', '2'], { cwd: project.path });
    expect(r.stdout).toContain('faultline explore  seed 7, up to 2 plans per scenario × configuration, 1 scenario × 1 configuration');
    expect(r.stdout).toContain('read-timeout-retry × naive');
    const typed = await faultline(['explore', 'payment-quota-exceeded', '--config', 'rulebook', '--seed', '3', '--runs', '2'], { cwd: project.path });
    expect(typed.stdout).toContain('seed 3,');
    expect(typed.stdout).toContain('payment-quota-exceeded × rulebook');
  }, 60_000);

  it('sweep: its scenarios, retry configurations, seed, k and outDir', async () => {
    const r = await faultline(['sweep', '--fault', 'rate_limit', '--lambda', '0', '--reporter', 'json'], { cwd: project.path });
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(await readFile(join(project.path, 'from-config', 'sweep.json'), 'utf8')) as { sweep: { seed: number; k: number; scenarios: string[]; configs: string[] } };
    expect(json.sweep).toMatchObject({ seed: 7, k: 2, scenarios: ['read-timeout-retry'], configs: ['naive'] });
  }, 60_000);
});
