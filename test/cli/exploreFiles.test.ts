import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, tempDir, type Finished } from './faultline.js';
import { inProcess } from './inProcess.js';
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

// The first search runs the binary (end to end); the other commands run in process, through the entry
// the binary calls (./inProcess.ts).
const binary = (args: readonly string[]): Promise<Finished> => faultline(args, { cwd: dir.path });
const run = (args: readonly string[]): Promise<Finished> => inProcess(args, { cwd: dir.path });
/** The searches of order-partial-write-no-idempotency these cases repeat: its plan replaced, 50 plans. */
const REPLACED_50 = ['explore', 'order-partial-write-no-idempotency', '--replace-faults', '--runs', '50'];
/** Its own plan under naive retries, 100 plans. */
const NAIVE_100 = ['explore', 'order-partial-write-no-idempotency', '--config', 'naive', '--runs', '100'];
const written = (r: Finished): string => /^ {4}regression: (\S+)/m.exec(r.stdout)?.[1] ?? `(none in ${r.stdout})`;

const SECRET = 'sk-live-0123456789abcdef';
/** order-partial-write-no-idempotency with a secret in its task (an agent that sent it anywhere would fail the secrets checker). */
const WITH_SECRETS = `name: secret-order
title: An order paid with ${SECRET}
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
    const all = await binary([...REPLACED_50, '--out', 'two']);
    const duplicates = await run([...REPLACED_50, '--check', 'duplicates', '--out', 'two']);
    expect([all.code, duplicates.code], all.stdout + duplicates.stdout).toEqual([1, 1]);
    expect(written(all)).not.toBe(written(duplicates));
    expect((await readdir(join(dir.path, 'two'))).sort()).toEqual(
      [written(all), written(duplicates)].map((f) => f.slice('two/'.length)).sort(),
    );
    for (const file of [written(all), written(duplicates)])
      expect(
        (await run(['run', file, '--config', 'rulebook', '--seed', '1', '--reporter', 'console'])).code,
        file,
      ).toBe(1);

    // The same search again writes the same bytes to the same file, and says so.
    const again = await run([...REPLACED_50, '--out', 'two']);
    expect(written(again)).toBe(written(all));
    expect(again.stdout).toContain('(unchanged: the same plan was kept before)');
    // A different file under that name (edited by hand) is replaced, and the output says so.
    await writeFile(join(dir.path, written(all)), '# edited\n');
    const replaced = await run([...REPLACED_50, '--out', 'two']);
    expect(replaced.stdout).toContain(`regression: ${written(all)} (replaced a different file of the same name)`);
  });

  it("keeps the scenario's secrets out of a YAML regression file, redacted in its task, and the file still fails under run", async () => {
    await writeFile(join(dir.path, 'secret-order.yaml'), WITH_SECRETS);
    const r = await run(['explore', './secret-order.yaml', '--replace-faults', '--runs', '50', '--out', 'secret']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const text = await readFile(join(dir.path, written(r)), 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).toContain('paying with [REDACTED]');
    expect(text).not.toMatch(/^secrets:/m);
    expect(text).toContain("The scenario's secrets are left out");
    // Its own run and replay, through every reporter: the secret is in no output.
    const own = await run([
      'run',
      written(r),
      '--config',
      'rulebook',
      '--seed',
      '1',
      '--out',
      'secret-run',
      ...['console', 'json', 'junit', 'markdown', 'html'].flatMap((x) => ['--reporter', x]),
    ]);
    expect(own.code).toBe(1);
    const replayed = await run(['replay', written(r), '--config', 'rulebook', '--seed', '1', '--trial', '0']);
    expect(replayed.code).toBe(1);
    const outputs = await readdir(join(dir.path, 'secret-run'), { recursive: true });
    expect(outputs).toEqual(expect.arrayContaining(['faultline.json', 'junit.xml', 'report.html', 'summary.md']));
    for (const file of outputs) {
      const body = await readFile(join(dir.path, 'secret-run', file)).catch(() => Buffer.from(''));
      expect(body.includes(SECRET), file).toBe(false);
    }
    for (const [name, text] of Object.entries({
      run: own.stdout + own.stderr,
      replay: replayed.stdout + replayed.stderr,
      explore: r.stdout + r.stderr,
    }))
      expect(text, name).not.toContain(SECRET);
  });
});

describe('faultline explore: every failure class', () => {
  /** Each class explore reports, with its regression file and the commands it printed. */
  const findings = (r: Finished): { failure: string; file: string; replay: string; reproduce: string }[] =>
    [
      ...r.stdout.matchAll(
        /^✗ \S+ × \S+: (\S+) at plan \d+; shrunk in \d+ steps[^\n]*\n(?:.*\n)*? {6}replay: faultline (.+)\n {4}regression: (\S+).*\n {4}reproduce: {2}faultline (.+)$/gm,
      ),
    ].map((m) => ({ failure: m[1]!, replay: m[2]!, file: m[3]!, reproduce: m[4]! }));

  it('goes past a scenario that fails on its own: each other class is shrunk to its own file, whose commands fail as printed', async () => {
    // Under naive retries the scenario breaks R23 with no added fault; the plans break other rules besides.
    const r = await run([...NAIVE_100, '--out', 'classes']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain(
      '✗ order-partial-write-no-idempotency × naive: fails with no added fault (duplicates/R23, retry-discipline/R23): faultline run order-partial-write-no-idempotency --config naive --seed 1',
    );
    const found = findings(r);
    const classes = found.map((f) => f.failure);
    expect(classes).toEqual(
      expect.arrayContaining(['honesty/R20', 'retry-discipline/R5', 'retry-discipline/R7', 'retry-discipline/R9']),
    );
    expect(new Set(classes).size).toBe(classes.length);
    expect(classes).not.toContain('duplicates/R23');
    expect(r.stdout).toMatch(
      new RegExp(`: 100 plans, ${classes.length} other failure classes: ${classes.join(', ')}\n`),
    );
    // One file per plan: classes that shrank to one plan share it, and the output says so.
    const files = [...new Set(found.map((f) => f.file))];
    expect((await readdir(join(dir.path, 'classes'))).sort()).toEqual(
      files.map((f) => f.slice('classes/'.length)).sort(),
    );
    // Classes that share a file print the same command: each distinct one runs once.
    const reproduced = new Map<string, Promise<Finished>>();
    for (const f of found) {
      expect(f.reproduce).toBe(`run ${f.file} --config naive --seed 1`);
      if (!reproduced.has(f.reproduce))
        reproduced.set(f.reproduce, run([...f.reproduce.split(' '), '--reporter', 'console']));
      const again = await reproduced.get(f.reproduce)!;
      expect(again.code, `${f.failure}: ${again.stdout}${again.stderr}`).toBe(1);
      expect(await readFile(join(dir.path, f.file), 'utf8')).toMatch(
        /^# fails \(.+; explored for .+\) with the fault plan below/m,
      );
    }
    const replay = await run(found[0]!.replay.split(' '));
    expect(replay.code, replay.stderr).toBe(1);

    // Deterministic per seed: the same search prints the same classes, plans and files.
    const again = await run([...NAIVE_100, '--out', 'classes']);
    expect(findings(again)).toEqual(found);
  });

  it('--ignore leaves out checkers, rules and classes, repeatable and as comma lists; what the baseline shows is then searched for', async () => {
    const r = await run([
      ...NAIVE_100,
      '--out',
      'ignored',
      '--ignore',
      'R23,honesty',
      '--ignore',
      'retry-discipline/R5',
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).not.toContain('fails with no added fault');
    const classes = findings(r).map((f) => f.failure);
    expect(classes.length).toBeGreaterThan(0);
    for (const c of classes) expect(c).not.toMatch(/^honesty|\/R23$|^retry-discipline\/R5$/);
    expect(classes).toContain('retry-discipline/R9');
    // The header's explore command repeats the flags that shaped the search.
    const text = await readFile(join(dir.path, findings(r)[0]!.file), 'utf8');
    expect(text).toMatch(
      /^# {3}explore: +faultline explore order-partial-write-no-idempotency --config naive --seed 1 --runs 100 --ignore R23 --ignore honesty --ignore retry-discipline\/R5 --path [\d:]+$/m,
    );

    for (const [flags, message] of [
      [['--ignore', 'R99'], '--ignore: "R99" is not a checker'],
      [['--ignore', 'nope/R2'], '--ignore: "nope/R2" is not a checker'],
      [
        ['--ignore', 'R7,,R9'],
        '--ignore: expected a checker, a rule (R1 to R31) or a failure class (such as duplicates/R24), got an empty name',
      ],
      [
        ['--check', 'duplicates,honesty', '--ignore', 'honesty'],
        '--ignore honesty: the same checker is named by --check',
      ],
    ] as const) {
      const bad = await run(['explore', 'order-partial-write-no-idempotency', ...flags]);
      expect(bad.code, bad.stderr).toBe(2);
      expect(bad.stderr).toContain(message);
    }
  });
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
  });

  it('list -t lists only the matching scenarios (with --configs, configurations)', async () => {
    const r = await run(['list', '-t', 'rate-limit', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const names = (JSON.parse(r.stdout) as { name: string }[]).map((s) => s.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => n.includes('rate-limit'))).toBe(true);
    const configs = await run(['list', '--configs', '--grep', '^naive$', '--json']);
    expect((JSON.parse(configs.stdout) as { name: string }[]).map((c) => c.name)).toEqual(['naive']);
    expect((await run(['list', '-t', 'no-such-scenario'])).code).toBe(2);
  });
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
    const r = await inProcess(['explore', '--runs', '2'], { cwd: project.path });
    expect(r.stdout).toContain(
      'faultline explore  seed 7, up to 2 plans per scenario × configuration, 1 scenario × 1 configuration',
    );
    expect(r.stdout).toContain('read-timeout-retry × naive');
    const typed = await inProcess(
      ['explore', 'payment-quota-exceeded', '--config', 'rulebook', '--seed', '3', '--runs', '2'],
      { cwd: project.path },
    );
    expect(typed.stdout).toContain('seed 3,');
    expect(typed.stdout).toContain('payment-quota-exceeded × rulebook');
  });

  it('sweep: its scenarios, retry configurations, seed, k and outDir', async () => {
    const r = await inProcess(['sweep', '--fault', 'rate_limit', '--lambda', '0', '--reporter', 'json'], {
      cwd: project.path,
    });
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(await readFile(join(project.path, 'from-config', 'sweep.json'), 'utf8')) as {
      sweep: { seed: number; k: number; scenarios: string[]; configs: string[] };
    };
    expect(json.sweep).toMatchObject({ seed: 7, k: 2, scenarios: ['read-timeout-retry'], configs: ['naive'] });
  });
});
