import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonReport } from '../../src/report/json.js';
import { faultline, tempDir, type Finished } from '../cli/faultline.js';
import { inProcess } from '../cli/inProcess.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
let compare: Finished;

beforeAll(async () => {
  dir = await tempDir('crowds');
  compare = await faultline(
    [
      'compare',
      'optimistic-100',
      '--k',
      '1',
      '--config',
      'full-jitter',
      '--config',
      'exponential-no-jitter',
      '--out',
      'c',
    ],
    { cwd: dir.path },
  );
});

afterAll(() => dir.cleanup());

// The compare above runs the binary, end to end; the other commands run the same entry in this
// process (../cli/inProcess.ts), which spares each a Node start and the CLI's modules.
const cli = (args: readonly string[]): Promise<Finished> => inProcess(args, { cwd: dir.path });

describe('a many-agent scenario through the one CLI', () => {
  it('compare runs it by name, gates it, and shows the crowd figures in every report', async () => {
    // exponential-no-jitter leaves 90 of 100 agents failed: the default gate pass^k>=1 fails.
    expect(compare.code, compare.stderr).toBe(1);
    expect(compare.stdout).toMatch(/^ {4}optimistic-100\s+full-jitter\s+100\s+1\.000\s+\d+\s/m);
    expect(compare.stdout).toMatch(/^ {4}optimistic-100\s+exponential-no-jitter\s+100\s+0\.100\s+955\s/m);
    expect(compare.stdout).toContain('reports: c/faultline.json, c/junit.xml, c/summary.md, c/compare.html');
    const report = parseJsonReport(await readFile(join(dir.path, 'c', 'faultline.json'), 'utf8'));
    expect(report.cells.map((c) => [c.config, c.metrics.crowd?.agents, c.metrics.crowd?.successRate])).toEqual([
      ['full-jitter', 100, 1],
      ['exponential-no-jitter', 100, 0.1],
    ]);
    expect(report.cells[0]?.metrics.crowd?.load[0]).toBeGreaterThanOrEqual(100);
    expect(await readFile(join(dir.path, 'c', 'summary.md'), 'utf8')).toMatch(
      /^\| optimistic-100 \| exponential-no-jitter \| 100 \| 0\.100 \| 955 \|/m,
    );
    expect(await readFile(join(dir.path, 'c', 'junit.xml'), 'utf8')).toContain('name="exponential-no-jitter"');
  });

  it('list and schema know the fields; replay reruns a failing crowd trial from its printed command', async () => {
    const [list, schema, replay] = await Promise.all([
      cli(['list', join(process.cwd(), 'scenarios', 'crowds'), '--json']),
      cli(['schema']),
      cli(['replay', 'optimistic-100', '--config', 'exponential-no-jitter', '--seed', '1', '--trial', '0']),
    ]);
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { name: string }[]).map((s) => s.name)).toEqual([
      'backoff-jitter-occ',
      'jobs-outage',
      'jobs-overload',
      'metastable-jobs',
      'optimistic-100',
    ]);
    expect(schema.code, schema.stderr).toBe(0);
    expect(schema.stdout).toContain('"agents"');
    expect(schema.stdout).toContain('"poisson"');
    expect(replay.stdout + replay.stderr).toContain('90 of 100 agents did not end with completed');
  });

  it('refuses an unknown scenario naming the built-in crowds, with exit code 2', async () => {
    const unknown = await cli(['run', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no scenario file or built-in scenario named "nope" \(built-in: .*optimistic-100/);
  });
});
