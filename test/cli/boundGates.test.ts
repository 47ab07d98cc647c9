import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonReport } from '../../src/report/index.js';
import { faultline, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';

/**
 * Gates on a confidence bound through the real CLI: refused before the run (exit 2) when the
 * run's trials could not reach the bound even if all passed, with the count that could; held
 * (exit 0) with that many trials; undecided after the run (exit 1) when some trials failed and
 * only the bound falls short, with the trials that would decide it.
 */

const PASSING = `name: steady-order
world:
  orders: { idempotency: true }
agent:
  kind: scripted
  task: Create order ref-1
  plan:
    steps:
      - tool: create_order
        input: { clientReference: ref-1, item: book, quantity: 1, amountCents: 1500 }
        subject: orders:ref-1
goal:
  effects: { order.created: 1 }
`;

// A lost answer in about one delivery in ten, against a service without idempotency: the naive
// configuration's blind resend then duplicates the order, so a few trials of many fail.
const FLAKY = `name: flaky-order
world:
  orders: { idempotency: false }
faults:
  - match: { tool: create_order, probability: 0.06 }
    fault: { kind: partial_write, lostAs: timeout }
agent:
  kind: scripted
  task: Create order ref-2
  plan:
    steps:
      - tool: create_order
        input: { clientReference: ref-2, item: lamp, quantity: 1, amountCents: 4500 }
        subject: orders:ref-2
goal:
  effects: { order.created: 1 }
`;

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('bound-gates');
  await writeFile(join(dir.path, 'steady.yaml'), PASSING);
  await writeFile(join(dir.path, 'flaky.yaml'), FLAKY);
});
afterAll(() => dir.cleanup());

// The run whose gate holds goes through the binary (end to end); the other cases run in process, through
// the entry the binary calls (./inProcess.ts).
const binary = (args: readonly string[]) => faultline(args, { cwd: dir.path });
const run = (args: readonly string[]) => inProcess(args, { cwd: dir.path });

describe('a gate on a confidence bound', () => {
  it('is refused before the first trial when k trials could not reach it even if all passed, with the k that could', async () => {
    const r = await run(['run', 'steady.yaml', '--k', '4', '--gate', 'pass^2>=0.9@95%', '--reporter', 'console']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /^error: --gate pass\^2>=0\.9@95% can never hold: with every trial passing, the 95% lower bound of pass\^2 from 4 trials is 0\.1581; it needs n ≥ 71 trials per cell \(--k 71\), and this run has --k 4$/m,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });

  it('holds with that many trials on a passing scenario, and the reports carry the bound', async () => {
    const r = await binary([
      'run',
      'steady.yaml',
      '--k',
      '71',
      '--gate',
      'pass^2>=0.9@95%',
      '--reporter',
      'console',
      '--reporter',
      'json',
      '--out',
      'held',
    ]);
    expect(r.code, r.stderr).toBe(0);
    // 0.025^(2/71) = 0.9013: the exact lower bound of p^2 with 71 of 71.
    expect(r.stdout).toContain('✓ pass^2>=0.9@95% held in 1 cell (worst 95% lower bound 0.9013)');
    expect(r.stdout).toMatch(/✓ steady-order\s+1\.000 \[0\.95, 1\.00\]\s+1\.000 \[0\.02, 1\.00\]/);
    const json = parseJsonReport(await readFile(join(dir.path, 'held', 'faultline.json'), 'utf8'));
    expect(json.gates.results[0]).toMatchObject({ gate: 'pass^2>=0.9@95%', passed: true, confidence: 0.95 });
    expect(json.gates.results[0]!.actual).toBeCloseTo(0.025 ** (2 / 71), 10);
    expect(json.cells[0]!.metrics.intervals!.passHat[1]![0]).toBeCloseTo(0.025 ** (2 / 71), 10);
  });

  it('is undecided after the run when a few trials failed and only the bound falls short: exit 1, with the trials that would decide it', async () => {
    const r = await run([
      'run',
      'flaky.yaml',
      '--config',
      'naive',
      '--k',
      '80',
      '--gate',
      'pass_rate>=0.8@95%',
      '--gate',
      'pass_rate>=0.9@95%',
      '--reporter',
      'console',
      '--reporter',
      'json',
      '--out',
      'flaky',
    ]);
    expect(r.code, r.stderr).toBe(1);
    const json = parseJsonReport(await readFile(join(dir.path, 'flaky', 'faultline.json'), 'utf8'));
    const m = json.cells[0]!.metrics;
    // The scenario must be flaky, not broken: some trials failed, and the estimate clears 0.9.
    expect(m.successes).toBeLessThan(m.trials);
    expect(m.successes / m.trials).toBeGreaterThanOrEqual(0.9);
    const [loose, tight] = json.gates.results;
    expect(loose).toMatchObject({ passed: true });
    expect(tight).toMatchObject({ passed: false, confidence: 0.95 });
    const needs = tight!.failures[0]!.undecided!.needs!;
    expect(needs).toBeGreaterThan(80);
    expect(r.stdout).toContain(
      `✗ pass_rate>=0.9@95% undecided in 1 of 1 cells: flaky-order × naive (95% lower bound ${Number(tight!.actual!.toFixed(4))}, pass_rate = ${Number((m.successes / m.trials).toFixed(4))}): with every further trial passing, pass_rate>=0.9@95% needs n ≥ ${needs} trials per cell; this run has 80`,
    );
  });

  it('is checked in a config file too: a bound on a count is refused, naming the file and the gate', async () => {
    await writeFile(
      join(dir.path, 'bad.config.ts'),
      `export default ${JSON.stringify({ gates: ['duplicates<=0@95%'] })};\n`,
    );
    const r = await run(['run', 'steady.yaml', '--config-file', 'bad.config.ts']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /bad\.config\.ts: invalid faultline config:\n {2}- gates\[0\]: invalid gate "duplicates<=0@95%": a confidence bound \(@\) applies only to a rate: pass\^n, pass@n, pass_rate or recovery, not duplicates/,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
