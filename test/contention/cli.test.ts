import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonReport } from '../../src/report/json.js';
import { faultline, tempDir, type Finished } from '../cli/faultline.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
let contention: Finished;
let plain: Finished;

beforeAll(async () => {
  dir = await tempDir('contention');
  const cwd = dir.path;
  [contention, plain] = await Promise.all([
    faultline(['compare', '--contention', 'optimistic-100', '--agents', '30', '--config', 'full-jitter', '--config', 'exponential-no-jitter', '--config', 'cockatiel-decorrelated', '--out', 'c'], { cwd }),
    faultline(['compare', 'read-timeout-retry', '--config', 'rulebook', '--config', 'no-retry', '--k', '1', '--out', 'p'], { cwd }),
  ]);
}, 30_000);

afterAll(() => dir.cleanup());

describe('faultline compare --contention', () => {
  it('prints the configurations side by side and writes the JSON, Markdown and HTML reports', async () => {
    expect(contention.stderr).toMatch(/optimistic-100 × full-jitter trial 0: 30 agents/);
    expect(contention.code).toBe(0);
    expect(contention.stdout).toContain('faultline compare --contention  optimistic-100: 30 agents × 1 call on one optimistic service, seed 1, 1 trial per configuration');
    expect(contention.stdout).toMatch(/^full-jitter\s+runtime\s+\d+/m);
    expect(contention.stdout).toMatch(/^cockatiel-decorrelated\s+cockatiel\s+\d+/m);
    expect(contention.stdout).toContain('reports: c/faultline.json, c/junit.xml, c/summary.md, c/compare.html');
    const report = parseJsonReport(await readFile(join(dir.path, 'c', 'faultline.json'), 'utf8'));
    expect(report.contention?.map((c) => c.results.map((r) => r.config))).toEqual([['full-jitter', 'exponential-no-jitter', 'cockatiel-decorrelated']]);
    expect(report.contention?.[0]?.scenario.agents).toBe(30);
    expect(await readFile(join(dir.path, 'c', 'summary.md'), 'utf8')).toContain('| exponential-no-jitter | runtime |');
    expect(await readFile(join(dir.path, 'c', 'compare.html'), 'utf8')).toContain('<canvas id="s0-optimistic-100-load"');
  });

  it('plain compare writes compare.html beside the other reports', async () => {
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain('reports: p/faultline.json, p/junit.xml, p/summary.md, p/compare.html');
    expect((await stat(join(dir.path, 'p', 'compare.html'))).size).toBeGreaterThan(200_000);
  });

  it('refuses --agents without --contention, and an unknown contention scenario, with exit code 2', async () => {
    const [agents, unknown] = await Promise.all([
      faultline(['compare', '--agents', '5'], { cwd: dir.path }),
      faultline(['compare', '--contention', 'nope'], { cwd: dir.path }),
    ]);
    expect([agents.code, agents.stderr.trim()]).toEqual([2, 'error: --agents needs --contention']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no contention scenario file or built-in contention scenario named "nope" (built-in: jobs-outage, jobs-overload, optimistic-100)');
  }, 30_000);
});
