import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonReport } from '../../src/report/json.js';
import { start, tempDir } from './faultline.js';

/**
 * SIGTERM and SIGHUP (what CI sends a cancelled job, and a closed terminal) stop a run as
 * Ctrl-C does: the partial reports are written and say so, with the exit code docs/cli.md
 * documents (128 + the signal's number), and no temp file is left behind.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('signals');
});
afterAll(() => dir.cleanup());

const noTempFiles = async (folder: string): Promise<void> => {
  expect((await readdir(folder)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
};

describe('a stop signal mid-run', () => {
  it('SIGTERM: finishes the trial in progress, writes partial JSON, JUnit, Markdown and step summary marked interrupted, exits 143', async () => {
    const summary = join(dir.path, 'step-summary.md');
    await writeFile(summary, '');
    const run = start(['run', '--k', '100', '--out', 'term'], { cwd: dir.path, env: { GITHUB_STEP_SUMMARY: summary } });
    await run.stderrLine(/^✓ rulebook × \S+: 100\/100 passed/);
    run.child.kill('SIGTERM');
    const r = await run.done;
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).toContain(
      'faultline: interrupted by SIGTERM; finishing the trial in progress and writing the reports',
    );
    expect(r.stderr).toMatch(/interrupted; the reports cover the \d+ trials that finished/);
    expect(r.stdout).toContain('reports: term/faultline.json, term/junit.xml, term/summary.md');

    const out = join(dir.path, 'term');
    const report = parseJsonReport(await readFile(join(out, 'faultline.json'), 'utf8'));
    expect(report.run.interrupted).toBe(true);
    expect(report.cells[0]!.metrics.trials).toBe(100);
    expect(report.run.trials).toBeLessThan(19 * 100);
    // Every finished trial is in its cell's verdict summary: none was cut off half-way and lost.
    for (const cell of report.cells) expect(cell.verdicts.reduce((n, g) => n + g.trials, 0)).toBe(cell.metrics.trials);

    const junit = await readFile(join(out, 'junit.xml'), 'utf8');
    expect(junit.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    expect(junit.trimEnd().endsWith('</testsuites>')).toBe(true);
    expect(junit).toContain('<property name="interrupted" value="true"/>');
    expect(junit).toContain('<skipped message="not run: the run was interrupted"/>');
    // Balanced: every suite and case that opens, closes.
    expect(junit.match(/<testsuite /g)?.length).toBe(junit.match(/<\/testsuite>/g)?.length);

    const interruptedNote = '> ⚠️ The run was interrupted: the figures cover only the trials that finished.';
    expect(await readFile(join(out, 'summary.md'), 'utf8')).toContain(interruptedNote);
    expect(await readFile(summary, 'utf8')).toContain(interruptedNote);
    await noTempFiles(out);
  });

  it('SIGHUP: the same, exit 129', async () => {
    const run = start(['run', '--k', '100', '--out', 'hup', '--reporter', 'json'], { cwd: dir.path });
    await run.stderrLine(/^✓ rulebook × \S+: 100\/100 passed/);
    run.child.kill('SIGHUP');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(129);
    expect(parseJsonReport(await readFile(join(dir.path, 'hup', 'faultline.json'), 'utf8')).run.interrupted).toBe(true);
  });

  it('a second SIGTERM leaves at once with the same code, no reports and no temp file', async () => {
    const run = start(['run', '--k', '100', '--out', 'twice'], { cwd: dir.path });
    await run.stderrLine(/^✓ rulebook × \S+: 100\/100 passed/);
    run.child.kill('SIGTERM');
    await run.stderrLine(/interrupted by SIGTERM/);
    run.child.kill('SIGTERM');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).toContain('faultline: SIGTERM again, exiting without reports');
    await noTempFiles(join(dir.path, 'twice'));
  });

  it('an interrupted comparison of many-agent scenarios says so in its Markdown and writes a JUnit file', async () => {
    const run = start(
      [
        'compare',
        'optimistic-100',
        '--k',
        '30',
        '--workers',
        '0',
        '--config',
        'full-jitter',
        '--config',
        'exponential-no-jitter',
        '--out',
        'crowd',
      ],
      { cwd: dir.path },
    );
    await run.stderrLine(/^✓ full-jitter × optimistic-100: 30\/30 passed/);
    run.child.kill('SIGTERM');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(143);
    const out = join(dir.path, 'crowd');
    expect(await readFile(join(out, 'summary.md'), 'utf8')).toContain(
      '> ⚠️ The run was interrupted: the figures cover only the trials that finished.',
    );
    const junit = await readFile(join(out, 'junit.xml'), 'utf8');
    expect(junit).toContain('<property name="interrupted" value="true"/>');
    const report = parseJsonReport(await readFile(join(out, 'faultline.json'), 'utf8'));
    expect(report.run.interrupted).toBe(true);
    expect(report.cells[0]?.metrics.crowd).toMatchObject({ agents: 3_000, successRate: 1 });
    await noTempFiles(out);
  });
});

describe('a stop signal during start-up', () => {
  it('is honoured: the run stops before its first trial, writes empty interrupted reports and exits 143', async () => {
    // A scenario module that takes its time to load, and says when it has started.
    await writeFile(
      join(dir.path, 'slow.ts'),
      `process.stderr.write('slow scenario loading\\n');\nawait new Promise((r) => setTimeout(r, 1500));\nexport default { name: 'slow', agent: { kind: 'scripted', task: 'Create order', plan: { steps: [{ name: 'o', tool: 'create_order', input: { clientReference: 'r', item: 'b', quantity: 1, amountCents: 1 } }] } } };\n`,
    );
    await writeFile(join(dir.path, 'package.json'), '{ "type": "module" }\n');
    const run = start(['run', 'slow.ts', '--k', '1', '--out', 'early'], { cwd: dir.path });
    await run.stderrLine(/^slow scenario loading$/);
    run.child.kill('SIGTERM');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(143);
    const report = parseJsonReport(await readFile(join(dir.path, 'early', 'faultline.json'), 'utf8'));
    expect(report.run.interrupted).toBe(true);
    expect(report.run.trials).toBe(0);
    expect(await readFile(join(dir.path, 'early', 'junit.xml'), 'utf8')).toContain(
      '<property name="interrupted" value="true"/>',
    );
  });

  it('is honoured when it comes while the CLI is still loading, in the last instant before it listens: exit 130, report interrupted', async () => {
    // A signal that arrived while the CLI's modules were evaluating is queued in Node, not yet
    // handed to any listener. This preload raises SIGINT at the last such instant: just before
    // bin/faultline.js takes its start-up holders off. It was lost (a full run, exit 0).
    const preload = join(dir.path, 'sigint-before-listening.mjs');
    await writeFile(
      preload,
      `const off = process.off.bind(process);\nlet sent = false;\nprocess.off = (name, fn) => {\n  if (name === 'SIGINT' && !sent) {\n    sent = true;\n    process.kill(process.pid, 'SIGINT');\n  }\n  return off(name, fn);\n};\n`,
    );
    const r = await start(['run', 'read-timeout-retry', '--k', '3', '--out', 'loading', '--reporter', 'json'], {
      cwd: dir.path,
      env: { NODE_OPTIONS: `--import=${pathToFileURL(preload).href}` },
    }).done;
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('faultline: interrupted; finishing the trial in progress and writing the reports');
    const report = parseJsonReport(await readFile(join(dir.path, 'loading', 'faultline.json'), 'utf8'));
    expect(report.run.interrupted).toBe(true);
    expect(report.run.trials).toBe(0);
  });
});
