import { copyFile, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonReport, type JsonReport } from '../../src/report/json.js';
import { faultline, tempDir, type Finished } from './faultline.js';
import { inProcess } from './inProcess.js';

/**
 * The CLI habits vitest and Playwright users bring, through the real binary in a temp folder:
 * `--bail` / `--max-failures`, `--last-failed`, the `dot` and `list` reporters and `--quiet`.
 * Under `naive`, calendar-end-before-start fails every trial and read-timeout-retry passes;
 * under `rulebook` every built-in scenario passes.
 */

const LIBRARY = fileURLToPath(new URL('../../scenarios/', import.meta.url));

let dir: Awaited<ReturnType<typeof tempDir>>;
const cwd = (): string => dir.path;
// The first case runs the binary (the path end to end); its variations run in process, through the
// entry the binary calls (./inProcess.ts).
const cli = (args: readonly string[]): Promise<Finished> => inProcess(args, { cwd: cwd() });
const BOTH_CONFIGS = ['--config', 'naive', '--config', 'rulebook'];
/** `run` of the two scenarios that split under naive (the first fails every trial, the second passes). */
const naiveSplit = (k: number, ...flags: string[]): string[] => [
  'run',
  'calendar-end-before-start',
  'read-timeout-retry',
  '--config',
  'naive',
  '--k',
  String(k),
  ...flags,
];
const report = async (out: string): Promise<JsonReport> =>
  parseJsonReport(await readFile(join(dir.path, out, 'faultline.json'), 'utf8'));

beforeAll(async () => {
  dir = await tempDir('habits');
});
afterAll(() => dir.cleanup());

describe('--bail / --max-failures', () => {
  it('in this process: stops at the first failing trial, writes the partial reports marked interrupted, exits 1', async () => {
    const r = await faultline(
      ['run', '--config', 'naive', '--k', '2', '--bail', '1', '--workers', '0', '--out', 'bail-1'],
      { cwd: cwd() },
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      'faultline: stopped after 1 failing trial (--bail 1); the reports cover the 1 trials that finished',
    );
    expect(r.stdout).toContain('interrupted: the figures cover only the trials that finished');
    const json = await report('bail-1');
    expect(json.run.interrupted).toBe(true);
    expect(json.run.trials).toBe(1);
    expect(json.run.failedTrials).toBe(1);
    const junit = await readFile(join(dir.path, 'bail-1', 'junit.xml'), 'utf8');
    expect(junit).toContain('<property name="interrupted" value="true"/>');
    expect(await readFile(join(dir.path, 'bail-1', 'summary.md'), 'utf8')).toContain('The run was interrupted');
  });

  it('--max-failures is the same flag; with workers and a shard the run stops short of the shard, at least n failing', async () => {
    const r = await cli([
      'run',
      '--config',
      'naive',
      '--k',
      '20',
      '--max-failures',
      '3',
      '--workers',
      '2',
      '--shard',
      '1/2',
      '--out',
      'bail-3',
      '--reporter',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      /stopped after 3 failing trials \(--bail 3\); the reports cover the \d+ trials that finished/,
    );
    const json = await report('bail-3');
    expect(json.run.interrupted).toBe(true);
    expect(json.run.shard).toEqual({ index: 1, count: 2 });
    // Trials in progress finish: at least 3 failed, and the shard's 150 trials were not all run.
    expect(json.run.failedTrials).toBeGreaterThanOrEqual(3);
    expect(json.run.trials).toBeLessThan(150);
  });

  it('a run that fails fewer trials than n runs to the end, not marked interrupted; 0 never stops', async () => {
    const [few, zero] = await Promise.all([
      cli(naiveSplit(2, '--bail', '5', '--out', 'bail-5', '--reporter', 'json')),
      cli([
        'run',
        'calendar-end-before-start',
        '--config',
        'naive',
        '--k',
        '3',
        '--bail',
        '0',
        '--out',
        'bail-0',
        '--reporter',
        'json',
      ]),
    ]);
    expect(few.code, few.stderr).toBe(1);
    expect(few.stderr).not.toContain('stopped after');
    expect((await report('bail-5')).run).toMatchObject({ interrupted: false, trials: 4, failedTrials: 2 });
    expect(zero.code, zero.stderr).toBe(1);
    expect((await report('bail-0')).run).toMatchObject({ interrupted: false, trials: 3, failedTrials: 3 });
  });

  it('compare takes it too', async () => {
    const r = await cli([
      'compare',
      'calendar-end-before-start',
      'read-timeout-retry',
      ...BOTH_CONFIGS,
      '--k',
      '4',
      '--bail',
      '1',
      '--workers',
      '0',
      '--out',
      'bail-compare',
      '--reporter',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect((await report('bail-compare')).run).toMatchObject({ interrupted: true, trials: 1, failedTrials: 1 });
  });
});

describe('--last-failed', () => {
  /** `run --last-failed` of the report in last/, at k = 2, under one configuration. */
  const lastFailed = (config: string, ...scenarios: string[]): string[] => [
    'run',
    ...scenarios,
    '--config',
    config,
    '--k',
    '2',
    '--out',
    'last',
    '--reporter',
    'json',
    '--last-failed',
  ];
  it("reruns only the failing cells' scenarios of the last report, then says when nothing failed", async () => {
    const first = await cli(['run', '--config', 'naive', '--k', '2', '--out', 'last', '--reporter', 'json']);
    expect(first.code, first.stderr).toBe(1);
    const cells = (await report('last')).cells;
    expect(cells).toHaveLength(19);
    const failing = cells.filter((c) => c.status === 'failed').map((c) => c.scenario);
    expect(failing.length).toBeGreaterThan(1);
    expect(failing.length).toBeLessThan(19);

    const again = await cli(lastFailed('naive'));
    expect(again.code, again.stderr).toBe(1);
    expect(again.stderr).toContain(
      `faultline: --last-failed reruns ${failing.length} scenarios: ${failing.join(', ')}\n`,
    );
    expect((await report('last')).cells.map((c) => c.scenario)).toEqual(failing);

    // Typed scenarios are filtered by the report, not replaced by it.
    expect(failing).toContain('email-rate-limit-seconds');
    const typed = await cli(lastFailed('naive', 'read-timeout-retry', 'email-rate-limit-seconds'));
    expect(typed.code, typed.stderr).toBe(1);
    expect((await report('last')).cells.map((c) => c.scenario)).toEqual(['email-rate-limit-seconds']);

    const fixed = await cli(lastFailed('rulebook'));
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stderr).toContain('faultline: --last-failed reruns scenario: email-rate-limit-seconds\n');
    const before = await stat(join(dir.path, 'last', 'faultline.json'));
    const nothing = await cli(['run', '--out', 'last', '--last-failed']);
    expect(nothing.code, nothing.stderr).toBe(0);
    expect(nothing.stdout).toBe(
      '--last-failed: nothing failed in last/faultline.json (1 cell, every one passed); nothing to rerun\n',
    );
    // Nothing ran: the last report stays as it was.
    expect((await stat(join(dir.path, 'last', 'faultline.json'))).mtimeMs).toBe(before.mtimeMs);
  });

  it('reruns a failing scenario file by the path the report names', async () => {
    const text = await readFile(join(LIBRARY, 'calendar-end-before-start.yaml'), 'utf8');
    await writeFile(join(dir.path, 'mine.yaml'), text.replace(/^name: .*$/m, 'name: my-calendar'));
    await copyFile(join(LIBRARY, 'read-timeout-retry.yaml'), join(dir.path, 'passes.yaml'));
    // Both runs, the first and its rerun, at k = 1 into files/.
    const toFiles = ['--config', 'naive', '--k', '1', '--out', 'files', '--reporter', 'json'];
    const first = await cli(['run', 'mine.yaml', 'passes.yaml', ...toFiles]);
    expect(first.code, first.stderr).toBe(1);
    const again = await cli(['run', ...toFiles, '--last-failed']);
    expect(again.code, again.stderr).toBe(1);
    expect((await report('files')).cells.map((c) => [c.scenario, c.refs.scenario])).toEqual([
      ['my-calendar', './mine.yaml'],
    ]);
  });

  it('no previous report: exit 2 naming the file and where the out folder came from', async () => {
    const [flag, byDefault] = await Promise.all([
      cli(['run', '--out', 'nowhere', '--last-failed']),
      cli(['compare', '--last-failed']),
    ]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe(
      'error: --last-failed: no previous report at nowhere/faultline.json (the out folder nowhere, from --out); run once without --last-failed, or point --out at the folder of the last run\n',
    );
    expect(byDefault.code).toBe(2);
    expect(byDefault.stderr).toContain(
      'error: --last-failed: no previous report at reports/faultline.json (the out folder reports, from the default)',
    );
  });

  it("the config file's outDir is named when the folder came from it", async () => {
    const project = await tempDir('habits-config');
    try {
      await writeFile(join(project.path, 'faultline.config.mjs'), "export default { outDir: 'out-from-config' };\n");
      const r = await inProcess(['run', '--last-failed'], { cwd: project.path });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('(the out folder out-from-config, from faultline.config.mjs: outDir)');
    } finally {
      await project.cleanup();
    }
  });
});

describe('dot and list reporters, --quiet', () => {
  it('dot: a mark per trial on stdout (· passed, F failed), then the summary; no progress on stderr', async () => {
    const r = await cli(naiveSplit(3, '--reporter', 'dot', '--workers', '0'));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout.split('\n')[0]).toBe('FFF···');
    expect(r.stdout).toContain('faultline  seed 1, k = 3, 2 scenarios × 1 configuration, 6 trials (3 failed)');
    expect(r.stderr).toBe('');
  });

  it('list: a line per finished cell on stdout, then the summary', async () => {
    const r = await cli(naiveSplit(2, '--reporter', 'list', '--reporter', 'json', '--out', 'list'));
    expect(r.code, r.stderr).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^✗ naive × calendar-end-before-start: 0\/2 passed \(retry-discipline\) \[\d\/4 trials\]$/,
    );
    expect(lines[1]).toMatch(/^✓ naive × read-timeout-retry: 2\/2 passed \[\d\/4 trials\]$/);
    expect(r.stdout).toContain('reports: list/faultline.json');
  });

  it('--quiet: the failing cells only, in the progress and the summary, with a count of what passed', async () => {
    const [quiet, loud] = await Promise.all([
      cli(naiveSplit(2, '--quiet', '--reporter', 'console')),
      cli(naiveSplit(2, '--reporter', 'console')),
    ]);
    expect(quiet.code).toBe(1);
    expect(quiet.stderr).toMatch(/^✗ naive × calendar-end-before-start: 0\/2 passed/);
    expect(quiet.stderr).not.toContain('read-timeout-retry');
    expect(quiet.stdout).toContain('✗ 1 of 2 cells passed every trial');
    expect(quiet.stdout).toContain('calendar-end-before-start × naive: 2 of 2 trials failed');
    expect(quiet.stdout).toContain('gates: 1 of 4 failed');
    expect(quiet.stdout).not.toContain('read-timeout-retry');
    expect(quiet.stdout).not.toContain('fault coverage');
    expect(loud.stdout).toContain('read-timeout-retry');
    expect(loud.stderr).toContain('read-timeout-retry');
  });

  it('--quiet with dot: only the failing marks', async () => {
    const r = await cli([
      'run',
      'read-timeout-retry',
      'calendar-end-before-start',
      '--config',
      'naive',
      '--k',
      '2',
      '--reporter',
      'dot',
      '--quiet',
      '--workers',
      '0',
    ]);
    expect(r.stdout.split('\n')[0]).toBe('FF');
  });
});

describe('the flags are documented', () => {
  it('every flag of run and compare --help appears in the CLI reference (docs/cli.md), and the help names the habit flags', async () => {
    const reference = await readFile(fileURLToPath(new URL('../../docs/cli.md', import.meta.url)), 'utf8');
    for (const command of ['run', 'compare']) {
      const help = await cli([command, '--help']);
      expect(help.code).toBe(0);
      const flags = [...help.stdout.matchAll(/^ {2}(?:-[a-z], )?(--[a-z-]+)/gm)]
        .map((m) => m[1]!)
        .filter((f) => f !== '--help');
      expect(flags).toEqual(
        expect.arrayContaining([
          '--bail',
          '--max-failures',
          '--last-failed',
          '--watch',
          '--quiet',
          '--grep',
          '--reporter',
        ]),
      );
      expect(help.stdout).toMatch(/^ {2}-t, --grep <pattern>/m);
      expect(help.stdout.replace(/\s+/g, ' ')).toContain('console, dot, list, json, junit, markdown, html or otlp');
      expect(flags.filter((f) => !new RegExp(`${f}(?![a-z-])`).test(reference))).toEqual([]);
    }
  });
});
