import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonReport, type JsonReport } from '../../src/report/json.js';
import { parseXml, xmlElements } from '../../src/report/testing/parseXml.js';
import { faultline, tempDir, type Finished } from './faultline.js';
import { inProcess } from './inProcess.js';

/**
 * `faultline run` end to end: the real binary over the built-in library, in a temp folder.
 * The runs start in beforeAll and the tests read their results: the library under the rulebook
 * configuration goes through the binary; the other three run the same entry in this process
 * (./inProcess.ts), which spares each a Node start and the CLI's modules.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
let rulebook: Finished;
let naive: Finished;
let naiveAgain: Finished;
let randomSeed: Finished;

const read = (...parts: string[]): Promise<string> => readFile(join(dir.path, ...parts), 'utf8');

beforeAll(async () => {
  dir = await tempDir('run');
  const cwd = dir.path;
  const cli = (args: readonly string[]): Promise<Finished> => inProcess(args, { cwd });
  [rulebook, naive, naiveAgain, randomSeed] = await Promise.all([
    faultline(['run', '--out', 'tmp'], { cwd }),
    cli(['run', '--config', 'naive', '--out', 'naive-out']),
    cli(['run', '--config', 'naive', '--seed', '1', '--out', 'naive-again', '--reporter', 'json']),
    cli(['run', 'read-timeout-retry', '--k', '1', '--seed', 'random', '--reporter', 'json', '--out', 'random']),
  ]);
});

afterAll(() => dir.cleanup());

describe('faultline run', () => {
  it('passes the built-in library under the rulebook configuration and writes every report', async () => {
    expect(rulebook.stderr).not.toMatch(/error|crashed/);
    expect(rulebook.code).toBe(0);
    expect(rulebook.stdout).toContain('faultline  seed 1, k = 4, 19 scenarios × 1 configuration, 76 trials (0 failed)');
    expect(rulebook.stdout).toContain('gates: all 4 held');
    expect(rulebook.stdout).toContain('reports: tmp/faultline.json, tmp/junit.xml, tmp/summary.md');
    // Not a TTY: a plain progress line per finished cell.
    expect(rulebook.stderr.trim().split('\n')).toHaveLength(19);
    expect(rulebook.stderr).toContain('✓ rulebook × read-timeout-retry: 4/4 passed');

    const report = parseJsonReport(await read('tmp', 'faultline.json'), 'faultline.json');
    expect(report.run).toMatchObject({
      seed: 1,
      k: 4,
      configs: ['rulebook'],
      interrupted: false,
      trials: 76,
      failedTrials: 0,
    });
    expect(report.run.scenarios).toHaveLength(19);
    expect(report.gates.passed).toBe(true);

    const junit = parseXml(await read('tmp', 'junit.xml'));
    const cases = xmlElements(junit, 'testcase').filter((c) => c.attrs['classname'] === 'rulebook');
    expect(cases.map((c) => c.attrs['name'])).toEqual(report.run.scenarios);
    expect(cases.flatMap((c) => xmlElements(c, 'failure'))).toEqual([]);

    const summary = await read('tmp', 'summary.md');
    expect(summary).toContain('### rulebook');
    expect(summary.split('\n').filter((l) => l.startsWith('| ✅ '))).toHaveLength(21); // 19 scenarios, the total, and email-outage-heal's recovery row
  });

  it('fails the gates under the naive configuration, naming the gate and the scenarios', async () => {
    expect(naive.code).toBe(1);
    // Naive never reconciles, so the stale-status scenario's stale read never happens: that rule
    // may not fire (its lost create still does), and no cell is left unexercised.
    expect(naive.stdout).toContain('gates: 2 of 4 failed');
    expect(naive.stdout).toContain('✓ unexercised==0 held in 19 cells (worst 0)');
    expect(naive.stdout).toMatch(
      /✗ pass\^k>=1 failed in \d+ of 19 cells: .*order-partial-write-no-idempotency × naive \(0\)/,
    );
    expect(naive.stdout).toMatch(
      /✗ duplicates==0 failed in 3 of 19 cells: (?=.*order-partial-write-idempotent × naive \(4\))(?=.*order-partial-write-no-idempotency × naive \(4\))(?=.*order-stale-status-resubmit × naive \(8\))/,
    );
    // Every failing cell shown carries the command that replays it.
    const failing = naive.stdout.split('\n').filter((l) => /^ {2}✗ \S+ × naive: /.test(l));
    const replays = naive.stdout
      .split('\n')
      .filter((l) => /^ {6}replay: faultline replay \S+ --config naive --seed 1 --trial \d+$/.test(l));
    expect(failing.length).toBeGreaterThan(0);
    expect(replays).toHaveLength(failing.length);

    const report = parseJsonReport(await read('naive-out', 'faultline.json'));
    expect(report.gates.passed).toBe(false);
    const junit = parseXml(await read('naive-out', 'junit.xml'));
    const failures = xmlElements(junit, 'testcase').filter(
      (c) => c.attrs['classname'] === 'naive' && xmlElements(c, 'failure').length > 0,
    );
    expect(failures.map((c) => c.attrs['name'])).toEqual(
      report.cells.filter((c) => c.status === 'failed').map((c) => c.scenario),
    );
  });

  it('gives byte-identical JSON for the same seed, apart from the wallClock section', async () => {
    expect(naiveAgain.code).toBe(1);
    const [a, b] = [await read('naive-out', 'faultline.json'), await read('naive-again', 'faultline.json')];
    const head = (text: string): string => text.slice(0, text.indexOf('"wallClock"'));
    expect(head(a).length).toBeGreaterThan(10_000);
    expect(head(a) === head(b)).toBe(true);
    // wallClock is the last section: nothing after it but its own fields.
    const tail = (r: JsonReport): string[] => Object.keys(r).slice(-1);
    expect(tail(parseJsonReport(a))).toEqual(['wallClock']);
  });

  it('--seed random picks a seed, prints it, and records it', async () => {
    expect(randomSeed.code).toBe(0);
    const seed = Number(/random seed (\d+) \(rerun with --seed \1\)/.exec(randomSeed.stderr)?.[1]);
    expect(Number.isSafeInteger(seed)).toBe(true);
    expect(parseJsonReport(await read('random', 'faultline.json')).run.seed).toBe(seed);
  });
});
