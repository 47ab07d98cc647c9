import { EventEmitter } from 'node:events';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, tempDir, type Finished } from './faultline.js';
import { JSON_SCHEMA_VERSION } from '../../src/report/json.js';
import { inProcess } from './inProcess.js';

/**
 * Bad input for the CLI-habit flags (`--bail`, `--max-failures`, `--last-failed`, `--watch`,
 * `--reporter dot|list`, `-t`), fuzzed through the CLI: every case exits 2 before the
 * first trial with one clear line naming the flag (or the file) and what was expected, never a
 * stack trace, never a silent run. The first case runs the real binary, end to end; the others
 * run the CLI's entry in this process (./inProcess.ts), the same compiled code.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('fuzz-habits');
  // Previous "reports" that are not a run's faultline.json.
  const write = async (folder: string, text: string): Promise<void> => {
    await mkdir(join(dir.path, folder), { recursive: true });
    await writeFile(join(dir.path, folder, 'faultline.json'), text);
  };
  await write('not-json', '{ "schemaVersion": 4, ');
  await write('sweep', JSON.stringify({ schemaVersion: 1, sweep: {} }));
  await write('old', JSON.stringify({ schemaVersion: 1, tool: 'faultline', cells: [] }));
  await write('edited', JSON.stringify({ schemaVersion: JSON_SCHEMA_VERSION, tool: 'faultline', cells: 'none' }));
  await mkdir(join(dir.path, 'folder-report', 'faultline.json'), { recursive: true });
});
afterAll(() => dir.cleanup());

// Not a whole number written in decimal digits: signs, fractions, exponents, hex, words, blanks.
const notACount = fc.oneof(
  fc.integer({ min: -1000, max: -1 }).map(String),
  fc.tuple(fc.nat(99), fc.integer({ min: 1, max: 9 })).map(([a, b]) => `${a}.${b}`),
  fc.constantFrom('1e3', '0x10', 'Infinity', 'NaN', '', ' ', 'all', 'one', '+1', '1_000', '9007199254740993'),
  fc.stringMatching(/^[a-z]{1,6}$/),
);

interface Case {
  readonly args: readonly string[];
  readonly says: RegExp;
}

const flagCases = (values: readonly string[]): Case[] =>
  values.flatMap((v) => [
    {
      args: ['run', '--bail', v],
      says: new RegExp(
        `^error: option '--bail <n>' argument '${escape(v)}' is invalid\\. expected a number of failing trials after which the run stops \\(0: never\\), got "${escape(v)}"$`,
        'm',
      ),
    },
    {
      args: ['compare', '--max-failures', v],
      says: new RegExp(
        `^error: option '--max-failures <n>' argument '${escape(v)}' is invalid\\. expected a number of failing trials`,
        'm',
      ),
    },
  ]);
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const FIXED: Case[] = [
  {
    args: ['run', '--bail', '1', '--max-failures', '2'],
    says: /^error: --bail 1 and --max-failures 2 are the same flag; give one value$/m,
  },
  {
    args: ['run', '--reporter', 'dots'],
    says: /^error: option '--reporter <name>' argument 'dots' is invalid\. unknown reporter "dots" \(one of: console, dot, list, json, junit, markdown, html, otlp\)$/m,
  },
  {
    args: ['run', '--reporter', 'lists'],
    says: /unknown reporter "lists" \(one of: console, dot, list, json, junit, markdown, html, otlp\)/,
  },
  {
    args: ['run', '-t', '('],
    says: /^error: option '-t, --grep <pattern>' argument '\(' is invalid\. not a regular expression: /m,
  },
  {
    args: ['explore', '-t', '[a-'],
    says: /^error: option '-t, --grep <pattern>' argument '\[a-' is invalid\. not a regular expression: /m,
  },
  {
    args: ['list', '-t', '*'],
    says: /^error: option '-t, --grep <pattern>' argument '\*' is invalid\. not a regular expression: /m,
  },
  {
    args: ['sweep', '-t', '+'],
    says: /^error: option '-t, --grep <pattern>' argument '\+' is invalid\. not a regular expression: /m,
  },
  {
    args: ['compare', '-t', 'no-such-scenario-anywhere', '--k', '1'],
    says: /^error: --grep no-such-scenario-anywhere matches no scenario \(scenarios: /,
  },
  {
    args: ['run', '--last-failed', '--out', 'missing'],
    says: /^error: --last-failed: no previous report at missing\/faultline\.json \(the out folder missing, from --out\)/m,
  },
  {
    args: ['run', '--last-failed', '--out', 'not-json'],
    says: /^error: --last-failed: not-json\/faultline\.json: not JSON \(/m,
  },
  {
    args: ['run', '--last-failed', '--out', 'sweep'],
    says: /^error: --last-failed: sweep\/faultline\.json: a sweep report \(sweep\.json, schemaVersion 1\), not a run's faultline\.json/m,
  },
  {
    args: ['compare', '--last-failed', '--out', 'old'],
    says: /^error: --last-failed: old\/faultline\.json: schemaVersion 1 is not supported \(expected \d+\)$/m,
  },
  {
    args: ['run', '--last-failed', '--out', 'edited'],
    says: /^error: --last-failed: edited\/faultline\.json: not a faultline JSON report \(was it edited\?\):$/m,
  },
  {
    args: ['run', '--last-failed', '--out', 'folder-report'],
    says: /^error: --last-failed: cannot read the previous report \(EISDIR\) at folder-report\/faultline\.json \(the out folder folder-report, from --out\)/m,
  },
  {
    args: ['run', '--watch'],
    says: /^error: --watch: no scenario file to watch \(built-in scenarios do not change\)/m,
  },
  {
    args: ['compare', 'scenarios/', '--watch', '--last-failed'],
    says: /^error: --watch reruns what changed and --last-failed what failed last time: give one of them$/m,
  },
];

describe('fuzzed bad values for the CLI-habit flags', () => {
  it('each is refused with exit 2, one clear line, no trial run and no stack', async () => {
    const values = fc.sample(notACount, { numRuns: 6, seed: 27 });
    const cases = [...FIXED, ...flagCases(values)];
    const failures: string[] = [];
    for (const [i, c] of cases.entries()) {
      const r: Finished =
        i === 0 ? await faultline(c.args, { cwd: dir.path }) : await inProcess(c.args, { cwd: dir.path });
      const problems = [
        r.code !== 2 && `exit ${r.code}`,
        !c.says.test(r.stderr) && `stderr does not match ${c.says}`,
        /\n\s+at |crashed/.test(r.stderr) && 'a stack trace',
        /faultline {2}seed/.test(r.stdout) && 'a run happened',
      ].filter(Boolean);
      if (problems.length > 0)
        failures.push(
          `faultline ${c.args.map((a) => JSON.stringify(a)).join(' ')}: ${problems.join(', ')}\n${r.stderr}`,
        );
    }
    expect(failures).toEqual([]);
  }, 600_000);
});

// One scenario that fails (it wants two events, the plan books one), under a matrix of two agents.
const MATRIX_SCENARIO = `name: s
agent:
  task: Book a review
  plan:
    steps:
      - tool: create_calendar_event
        input: { clientReference: review-1, title: Design review, start: '2026-01-12T10:00:00Z', end: '2026-01-12T11:00:00Z' }
        subject: calendar:review-1
goal:
  effects: { calendar.event_created: 2 }
`;
const MATRIX_CONFIG =
  "export default { scenarios: ['s.yaml'], defaults: { services: ['calendar'] }, agents: [{ name: 'a1', kind: 'scripted' }, { name: 'a2', kind: 'scripted' }] };\n";

describe('the habit flags under an agents matrix (in process)', () => {
  let matrix: Awaited<ReturnType<typeof tempDir>>;
  let configFile = '';
  beforeAll(async () => {
    matrix = await tempDir('habits-matrix');
    configFile = join(matrix.path, 'faultline.config.mjs');
    await writeFile(join(matrix.path, 's.yaml'), MATRIX_SCENARIO);
    await writeFile(configFile, MATRIX_CONFIG);
  });
  afterAll(() => matrix.cleanup());
  const cli = (args: readonly string[]): Promise<Finished> => inProcess(args, { cwd: matrix.path });

  it('--agent with no name in it is refused on every command that picks agents (it would run nothing and exit 0)', async () => {
    const blanks = fc.constantFrom('', ' ', ',', ' , ,');
    const commands = fc.constantFrom<readonly string[]>(
      ['run', '--k', '1'],
      ['compare', '--k', '1'],
      ['explore', '--runs', '1'],
      ['sweep', '--k', '1', '--lambda', '0'],
      ['list'],
    );
    await fc.assert(
      fc.asyncProperty(blanks, commands, async (blank, command) => {
        const r = await cli(
          [...command, '--config-file', configFile, '--out', join(matrix.path, 'out'), '--agent', blank].filter(
            (a, i, all) => !(command[0] === 'list' && (a === '--out' || all[i - 1] === '--out')),
          ),
        );
        expect(r.code, r.stderr + r.stdout).toBe(2);
        expect(r.stderr).toContain(
          `option '--agent <name>' argument '${blank}' is invalid. expected a name (or a comma list of names), got "${blank}"`,
        );
        expect(r.stdout).not.toMatch(/--watch|faultline {2}seed/);
      }),
      { numRuns: 8, seed: 43 },
    );
  }, 120_000);

  it('sweep --json without --replay is refused, naming both flags (it was dropped without a word)', async () => {
    const r = await cli(['sweep', join(matrix.path, 's.yaml'), '--config-file', configFile, '--json', '--k', '1']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("error: --json prints a replayed trial's history as JSON: give it with --replay <i>");
    expect(r.stdout).toBe('');
  }, 20_000);

  it('--watch of a scenario ref that names nothing is refused (exit 2), not watched forever', async () => {
    for (const refs of [
      [join(matrix.path, 'nope.yaml')],
      [join(matrix.path, 's.yaml'), 'no-such-built-in'],
      [join(matrix.path, 'gone/')],
    ]) {
      const r = await cli(['run', ...refs, '--watch', '--k', '1']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(
        /^error: no scenario file or built-in scenario named "(\S*nope\.yaml|no-such-built-in|\S*gone\/?)"/m,
      );
    }
  }, 20_000);

  it('-t matching nothing and --last-failed name each matrix scenario once, not once per agent', async () => {
    const grep = await cli(['list', '--config-file', configFile, '-t', 'zzz']);
    expect(grep.code).toBe(2);
    expect(grep.stderr).toContain('--grep zzz matches no scenario (scenarios: s)\n');
    const out = join(matrix.path, 'last');
    const first = await cli(['run', '--config-file', configFile, '--k', '1', '--out', out, '--reporter', 'json']);
    expect(first.code, first.stderr).toBe(1);
    const again = await cli([
      'run',
      '--config-file',
      configFile,
      '--k',
      '1',
      '--out',
      out,
      '--reporter',
      'json',
      '--last-failed',
    ]);
    expect(again.stderr).toContain('faultline: --last-failed reruns scenario: s\n');
  }, 120_000);
});

describe('--config on a scenario whose own command agent retries in its own code (issue 43 #13)', () => {
  let own: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    own = await tempDir('habits-own-retries');
    await writeFile(join(own.path, 'shell.yaml'), "name: shell-own\nagent:\n  kind: command\n  argv: ['true']\n");
  });
  afterAll(() => own.cleanup());

  // explore and sweep (and sweep's --replay) make the same one check as run and compare: they accepted the flag.
  const COMMANDS: readonly (readonly string[])[] = [
    ['run', '--k', '1'],
    ['compare', '--k', '1'],
    ['explore', '--runs', '1'],
    ['sweep', '--k', '1', '--lambda', '0'],
    ['sweep', '--fault', 'rate_limit', '--lambda', '0.1', '--seed', '1', '--replay', '0'],
  ];
  it('is refused with exit 2 before any trial, naming the configurations and the agent, on a drawn command (run, compare, explore, sweep)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...COMMANDS),
        fc.uniqueArray(fc.constantFrom('rulebook', 'naive'), { minLength: 1, maxLength: 2 }),
        async (command, configs) => {
          const r = await inProcess(
            [...command, 'shell.yaml', ...configs.flatMap((c) => ['--config', c]), '--out', 'out'],
            { cwd: own.path },
          );
          expect(r.code, r.stderr + r.stdout).toBe(2);
          expect(r.stderr).toContain(
            `error: --config (${configs.join(', ')}): the agent shell-own's command agent makes its own calls and ` +
              'retries, so no retry configuration applies to it',
          );
          expect(r.stdout).not.toMatch(/faultline {2}seed/);
        },
      ),
      // Each command once for sure, then drawn ones.
      { numRuns: 8, seed: 43, examples: COMMANDS.map((c) => [c, ['naive']] as [readonly string[], string[]]) },
    );
  }, 60_000);

  // A config file's retryConfigs are the project's defaults, not a flag the user typed: every command notes that
  // they do not apply and runs (explore and sweep refused them, naming a --config never given).
  it("is only a note when the configurations come from the config file's retryConfigs, on every command", async () => {
    const project = join(own.path, 'with-config');
    await mkdir(project, { recursive: true });
    await writeFile(join(project, 'shell.yaml'), "name: shell-own\nagent:\n  kind: command\n  argv: ['true']\n");
    await writeFile(join(project, 'faultline.config.mjs'), "export default { retryConfigs: ['rulebook'] };\n");
    // run, compare and sweep with `--workers 0` (explore takes no such flag): the note and the verdict are the subject,
    // which the isolation does not change, and a run on workers would start a worker's host process and load faultline
    // and the project's config in it again.
    for (const command of COMMANDS.slice(0, 4)) {
      const here = command[0] === 'explore' ? [] : ['--workers', '0'];
      const r = await inProcess([...command, 'shell.yaml', ...here, '--out', 'out'], { cwd: project });
      expect(r.stderr, command.join(' ')).not.toContain('error: --config');
      expect(r.stderr, command.join(' ')).toContain('faultline.config.mjs: retryConfigs (rulebook)');
      expect(r.code, `${command.join(' ')}: ${r.stderr}`).not.toBe(2);
    }
  }, 120_000);
});

// Issue 43 #28, a law over the watch loop's signal handling, in process: whichever stop signal reaches the watcher
// while its run has a trial in flight (drawn, at a drawn moment), the run (a process group of its own, out of the
// terminal's reach) is told once: it finishes that trial and writes its reports, marked interrupted; told twice,
// it would have quit without them. One run per draw, the CLI's signal stand-in in place of the terminal.
describe('issue 43 #28: a stop signal during a --watch run reaches the run once', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir('habits-watch-signal');
  });
  afterAll(() => dir.cleanup());

  it('the run finishes its trial and writes its reports, marked interrupted, whatever the signal', async () => {
    const draws = fc.sample(
      fc.record({ signal: fc.constantFrom('SIGINT', 'SIGTERM', 'SIGHUP'), delayMs: fc.integer({ min: 0, max: 300 }) }),
      { numRuns: 3, seed: 43 },
    );
    for (const [i, { signal, delayMs }] of draws.entries()) {
      const started = join(dir.path, `started-${i}`);
      await writeFile(
        join(dir.path, `slow-${i}.yaml`),
        `name: slow-${i}\nagent:\n  kind: command\n  task: t\n` +
          `  argv: [sh, -c, 'touch ${started}; sleep 1; echo "{\\"outcome\\":\\"completed\\"}" > "$FAULTLINE_RESULT"']\n`,
      );
      const signals = new EventEmitter();
      const watching = inProcess(
        ['run', `slow-${i}.yaml`, '--k', '3', '--workers', '1', '--reporter', 'json', '--out', `out-${i}`, '--watch'],
        {
          cwd: dir.path,
          signals,
        },
      );
      // Once the run's trial is in flight, the signal, once.
      for (let n = 0; (await stat(started).catch(() => undefined)) === undefined; n++) {
        if (n > 600) throw new Error(`the run's agent never started: ${started}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, delayMs));
      signals.emit(signal);
      const r = await watching;
      expect(r.code, `${signal}: ${r.stderr}`).toBe({ SIGINT: 130, SIGTERM: 143, SIGHUP: 129 }[signal]);
      const report = JSON.parse(await readFile(join(dir.path, `out-${i}`, 'faultline.json'), 'utf8')) as {
        run: { interrupted?: boolean; trials: number };
      };
      expect(report.run.interrupted, signal).toBe(true);
      // What finished is in it; the run stopped before its third trial.
      expect(report.run.trials).toBeGreaterThanOrEqual(1);
      expect(report.run.trials).toBeLessThan(3);
    }
  }, 120_000);
});
