import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesIn, LIBRARY_DIR } from '../scenario/library.js';
import { parseJsonReport } from '../report/json.js';
import type { Io } from './io.js';
import { main } from './main.js';

/** The library scenario compared under a configuration that passes it and one that fails it. */
const BOTH_CONFIGS = ['compare', 'read-timeout-retry', '--config', 'rulebook', '--config', 'no-retry'];

/** The CLI in-process, with its output captured: fast checks of wiring the e2e suite runs for real. */
async function cli(
  argv: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = {
    stdout: { write: (s) => ((out += s), true) },
    stderr: { write: (s) => ((err += s), true) },
    env,
    signals: new EventEmitter(),
    exit: (code) => {
      throw new Error(`unexpected exit ${code}`);
    },
  };
  const code = await main(argv, io);
  return { code, out, err };
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faultline-main-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('main (in process)', () => {
  it('lists every built-in scenario as JSON', async () => {
    const { code, out } = await cli(['list', '--json']);
    expect(code).toBe(0);
    const names = (JSON.parse(out) as { name: string }[]).map((s) => s.name);
    const files = (await filesIn(LIBRARY_DIR)).map((f) => f.slice(LIBRARY_DIR.length).replace(/\.yaml$/, ''));
    expect(names).toEqual(files);
  });

  it('prints the retry-configuration schema', async () => {
    const { code, out } = await cli(['schema', '--config-schema']);
    expect(code).toBe(0);
    type Branch = { required: string[]; additionalProperties: boolean; properties: Record<string, unknown> };
    const schema = JSON.parse(out) as { $schema: string; title: string; anyOf: Branch[] };
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.title).toBe('faultline retry configuration');
    // One branch per kind. Input form: only fields without a default are required, and the runtime's `kind` is optional.
    const [runtime, cockatiel, pRetry] = schema.anyOf;
    expect(runtime?.required).toEqual(['name']);
    expect(Object.keys(runtime?.properties ?? {})).toEqual(expect.arrayContaining(['retryBudget', 'kind', 'layers']));
    expect(cockatiel?.required).toEqual(['kind', 'name']);
    expect(pRetry?.required).toEqual(['kind', 'name']);
    expect(schema.anyOf.every((b) => !b.additionalProperties)).toBe(true);
  });

  it('runs, prints the summary, and appends the markdown summary to GITHUB_STEP_SUMMARY', async () => {
    const summary = join(dir, 'step-summary.md');
    await writeFile(summary, '# earlier step\n');
    const out = join(dir, 'run');
    const r = await cli(
      ['run', 'read-timeout-retry', '--k', '2', '--reporter', 'console', '--reporter', 'json', '--out', out],
      { GITHUB_STEP_SUMMARY: summary },
    );
    expect(r.code).toBe(0);
    expect(r.out).toContain('faultline  seed 1, k = 2, 1 scenario × 1 configuration, 2 trials (0 failed)');
    expect(r.out).toContain('gates: all 4 held');
    expect(r.err).toBe('✓ rulebook × read-timeout-retry: 2/2 passed [2/2 trials]\n');
    const report = parseJsonReport(await readFile(join(out, 'faultline.json'), 'utf8'));
    expect(report.run.trials).toBe(2);
    const md = await readFile(summary, 'utf8');
    expect(md.startsWith('# earlier step\n')).toBe(true);
    expect(md).toContain('### rulebook');
  });

  it('compares configurations side by side and fails the default gates when one of them fails', async () => {
    const out = join(dir, 'compare');
    const r = await cli([...BOTH_CONFIGS, '--k', '2', '--out', out, '--reporter', 'console', '--reporter', 'json']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/│ rulebook\s+│ no-retry/);
    expect(r.out).toMatch(/^read-timeout-retry\s+│ ✓ .*│ ✗ /m);
    expect(r.out).toContain('replay: faultline replay read-timeout-retry --config no-retry --seed 1 --trial 0');
    const report = parseJsonReport(await readFile(join(out, 'faultline.json'), 'utf8'));
    expect(report.run.configs).toEqual(['rulebook', 'no-retry']);
  });

  it('passes a config-scoped gate that ignores the failing configuration', async () => {
    const r = await cli([
      ...BOTH_CONFIGS,
      '--k',
      '1',
      '--out',
      join(dir, 'scoped'),
      '--reporter',
      'json',
      '--gate',
      'config=rulebook:pass^k>=1',
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`\nreports: ${join(dir, 'scoped', 'faultline.json')}\n`);
  });

  it('refuses replay with a random seed', async () => {
    const r = await cli(['replay', 'read-timeout-retry', '--seed', 'random']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('replay needs the seed of the run it reproduces');
  });
});
