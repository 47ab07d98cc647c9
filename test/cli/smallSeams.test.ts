import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';

/**
 * Small things a new user meets in the first hour. A reader that goes away is a case about the
 * process's own pipes, so it runs the real binary; the others run the CLI's entry in this
 * process (./inProcess.ts), whose output and exit code are the binary's.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('seams');
  await writeFile(join(dir.path, 'package.json'), '{ "type": "module" }\n');
});
afterAll(() => dir.cleanup());

const cli = (args: readonly string[]) => inProcess(args, { cwd: dir.path });

describe('--config-file that exists but is no config file', () => {
  it('/dev/null is refused as an invalid config (exit 2), not as a missing file', async () => {
    const r = await cli(['run', '--config-file', '/dev/null']);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('no such file');
    expect(r.stderr).toContain('--config-file /dev/null: invalid faultline config');
    expect(r.stderr).toContain('a character device, not a file');
  });

  it('a folder likewise; a missing file still says no such file', async () => {
    await mkdir(join(dir.path, 'conf'), { recursive: true });
    const folder = await cli(['run', '--config-file', 'conf']);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain('--config-file conf: invalid faultline config');
    expect(folder.stderr).toContain('a folder, not a file');
    const missing = await cli(['run', '--config-file', 'nope.config.ts']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--config-file nope.config.ts: no such file');
  });
});

describe('a reader that goes away does not change the exit code', () => {
  /** Runs the binary with stderr (or stdout) a pipe whose reading end is closed before it writes: EPIPE on every write. */
  const withClosedPipe = (args: string[], which: 'stdout' | 'stderr'): Promise<number | null> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        cwd: dir.path,
        env: { ...process.env, NO_COLOR: '1', CI: '' },
        stdio: ['ignore', which === 'stdout' ? 'pipe' : 'ignore', which === 'stderr' ? 'pipe' : 'ignore'],
      });
      child[which]!.destroy();
      child.on('error', reject);
      child.on('close', (code) => resolve(code));
    });

  it('a usage error exits 2 with stderr piped into a closed reader (faultline … 2>&1 | head -1)', async () => {
    expect(await withClosedPipe(['run', '--no-such-flag'], 'stderr')).toBe(2);
    expect(await withClosedPipe(['run', 'no-such-scenario'], 'stderr')).toBe(2);
  });

  it('a failing run exits 1 and a passing one 0 with stdout piped into a closed reader', async () => {
    expect(
      await withClosedPipe(
        ['run', 'order-partial-write-no-idempotency', '--config', 'naive', '--k', '1', '--out', 'epipe'],
        'stdout',
      ),
    ).toBe(1);
    expect(await withClosedPipe(['run', 'payment-quota-exceeded', '--k', '1', '--out', 'epipe'], 'stdout')).toBe(0);
  });
});

describe('the console report', () => {
  it('ends with the rules of every failing verdict, even when the one shown cites none', async () => {
    const r = await cli([
      'run',
      'order-partial-write-no-idempotency',
      '--config',
      'naive',
      '--k',
      '1',
      '--out',
      'rules',
    ]);
    expect(r.code).toBe(1);
    // The verdict shown (the goal unmet) cites no rule; retry-discipline's does.
    expect(r.stdout).toMatch(/trial 0: goal-state: order\.created happened 2 times/);
    expect(r.stdout).toMatch(/^\s*rules: R\d+.* \(explained in .+#r\d+\)$/m);
  });

  it('with k = 1 shows pass^1 once, in run and in compare', async () => {
    const run = await cli(['run', 'payment-quota-exceeded', '--k', '1', '--out', 'k1']);
    expect(run.code).toBe(0);
    const header = run.stdout.split('\n').find((l) => l.includes('scenario') && l.includes('pass^1'))!;
    expect(header.match(/pass\^1\b/g)).toHaveLength(1);
    expect(header).toContain('pass@1');
    const compare = await cli([
      'compare',
      'payment-quota-exceeded',
      '--config',
      'naive',
      '--config',
      'rulebook',
      '--k',
      '1',
      '--out',
      'k1c',
    ]);
    const groups = compare.stdout.split('\n').find((l) => l.includes('pass^1'))!;
    expect(groups.match(/pass\^1\b/g)).toHaveLength(2);
    // k > 1 keeps both columns.
    const k3 = await cli(['run', 'payment-quota-exceeded', '--k', '3', '--out', 'k3']);
    expect(k3.stdout.split('\n').find((l) => l.includes('pass^1'))).toContain('pass^3');
  });
});

describe('one story for 500 (R1, R2; docs/scenarios.md and docs/rules.md say the same)', () => {
  const scenario = (name: string, status: number): string => `name: ${name}
faults:
  - match: { tool: create_order }
    times: 1
    fault: { kind: unavailable, status: ${status} }
agent:
  kind: scripted
  task: Create an order
  plan:
    steps:
      - name: order
        tool: create_order
        input: { clientReference: ref-1, item: book, quantity: 1, amountCents: 1500 }
`;

  it('a bare 500 is internal, permanent: the rulebook does not retry it, a retry is a breach; a 503 is retried', async () => {
    await writeFile(join(dir.path, 'bare-500.yaml'), scenario('bare-500', 500));
    await writeFile(join(dir.path, 'down-503.yaml'), scenario('down-503', 503));
    const r = await cli([
      'run',
      'bare-500.yaml',
      'down-503.yaml',
      '--config',
      'rulebook',
      '--config',
      'naive',
      '--k',
      '1',
      '--out',
      'five-hundred',
    ]);
    expect(r.code).toBe(1);
    const json = JSON.parse(await readFile(join(dir.path, 'five-hundred', 'faultline.json'), 'utf8')) as {
      cells: {
        scenario: string;
        config: string;
        metrics: { successes: number; amplification: number };
        trials: { checks: { name: string; verdict: { valid: boolean; message?: string } }[] }[];
      }[];
    };
    const cell = (scenario: string, config: string) =>
      json.cells.find((c) => c.scenario === scenario && c.config === config)!;
    const retryVerdict = (scenario: string, config: string) =>
      cell(scenario, config).trials[0]?.checks.find((c) => c.name === 'retry-discipline')?.verdict;
    // The rulebook sends the 500'd call once; naive resends it, and that is a retry after a permanent error.
    expect(cell('bare-500', 'rulebook').metrics.amplification).toBe(1);
    expect(retryVerdict('bare-500', 'naive')?.message).toMatch(
      /after the internal error .*permanent errors are never retried \(R7\)/,
    );
    // 503: a service briefly down, retried by the rulebook, which then succeeds.
    expect(cell('down-503', 'rulebook').metrics.successes).toBe(1);
    expect(cell('down-503', 'rulebook').metrics.amplification).toBe(2);
  });
});
