import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonReport } from '../../src/report/json.js';
import { faultline, start, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('interrupt');
});
afterAll(() => dir.cleanup());

describe('Ctrl-C during a run', () => {
  it('lets the trial in progress finish, writes every report for what finished, and exits 130', async () => {
    // 19 scenarios × 200 trials: several seconds of work, stopped after the first cell.
    const run = start(['run', '--k', '200', '--out', 'partial'], { cwd: dir.path });
    await run.stderrLine(/^✓ rulebook × \S+: 200\/200 passed/);
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('faultline: interrupted; finishing the trial in progress');
    expect(r.stderr).toMatch(/interrupted; the reports cover the \d+ trials that finished/);
    expect(r.stdout).toContain('interrupted: the figures cover only the trials that finished');
    expect(r.stdout).toContain('reports: partial/faultline.json, partial/junit.xml, partial/summary.md');

    const report = parseJsonReport(await readFile(join(dir.path, 'partial', 'faultline.json'), 'utf8'));
    expect(report.run.interrupted).toBe(true);
    const trials = report.cells.map((c) => c.metrics.trials);
    expect(trials[0]).toBe(200);
    expect(report.run.trials).toBe(trials.reduce((a, n) => a + n, 0));
    expect(report.run.trials).toBeLessThan(19 * 200);
    // Every finished trial is in its cell's verdict summary: none was cut off half-way and lost.
    for (const cell of report.cells) expect(cell.verdicts.reduce((a, g) => a + g.trials, 0)).toBe(cell.metrics.trials);
    expect(await readFile(join(dir.path, 'partial', 'junit.xml'), 'utf8')).toContain(
      '<property name="interrupted" value="true"/>',
    );
  });
});

describe('faultline replay', () => {
  it("reproduces a failing trial's history exactly, from the command line in the report", async () => {
    // The run and the --json replay in process (./inProcess.ts); the replay as printed runs the binary.
    const run = await inProcess(
      [
        'run',
        'order-partial-write-no-idempotency',
        'payment-quota-exceeded',
        '--config',
        'naive',
        '--seed',
        '42',
        '--k',
        '3',
        '--reporter',
        'json',
        '--out',
        'naive-report',
      ],
      {
        cwd: dir.path,
      },
    );
    expect(run.code).toBe(1);
    const report = parseJsonReport(await readFile(join(dir.path, 'naive-report', 'faultline.json'), 'utf8'));
    const failed = report.cells
      .flatMap((c) => c.trials)
      .filter((t) => t.status === 'failed' && t.failed.includes('duplicates'));
    const trial = failed.at(-1)!;
    expect(trial.replay).toBe(
      `faultline replay order-partial-write-no-idempotency --config naive --seed 42 --trial ${trial.index}`,
    );
    const args = trial.replay.split(' ').slice(1);

    const [json, text] = await Promise.all([
      inProcess([...args, '--json'], { cwd: dir.path }),
      faultline(args, { cwd: dir.path }),
    ]);
    expect(json.code, json.stderr).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual(trial.history);

    expect(text.code).toBe(1);
    expect(text.stdout).toContain(
      `order-partial-write-no-idempotency × naive, seed 42, trial ${trial.index}: failed (${trial.failed.join(', ')})`,
    );
    expect(text.stdout).toContain(
      `trial ${trial.index} of order-partial-write-no-idempotency under naive (seed ${trial.seed})`,
    );
    const duplicates = trial.checks.find((c) => c.name === 'duplicates')!.verdict;
    expect(duplicates.valid).toBe(false);
    if (duplicates.valid === false) expect(text.stdout).toContain(`✗ duplicates: ${duplicates.message}`);
    expect(text.stdout).toContain('✓ budget');
  });

  it('exits 0 for a passing trial', async () => {
    const r = await inProcess(['replay', 'read-timeout-retry', '--seed', '3', '--trial', '1'], { cwd: dir.path });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^faultline replay {2}read-timeout-retry × rulebook, seed 3, trial 1: passed\n/);
  });
});
