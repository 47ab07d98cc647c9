import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_CHECKERS } from '../../src/checks/index.js';
import { parseJsonReport } from '../../src/report/json.js';
import { faultline, tempDir, type Finished } from './faultline.js';
import { inProcess } from './inProcess.js';
import { trialFlags } from './trialFlags.js';

/**
 * Configurations of every kind through the real CLI: cockatiel's and p-retry's policies and
 * a layered runtime configuration, named as built-ins (they live in scenarios/configs/crowds/)
 * and judged by the same checkers, gates and replay as the reference runtime's.
 */
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('library-configs');
});
afterAll(() => dir.cleanup());

// Each library's run goes through the binary (end to end); its replay and the other runs in process,
// through the entry the binary calls (./inProcess.ts).
const cli = (args: readonly string[]): Promise<Finished> => inProcess(args, { cwd: dir.path });
const report = async (out: string) => parseJsonReport(await readFile(join(dir.path, out, 'faultline.json'), 'utf8'));
// `recovery` judges only scenarios that expect a recovery; these do not.
// Every checker a library scenario is judged by: \`recovery\` only measures, and \`model-mistakes\`
// judges only scenarios whose faults make the model's own mistakes (none of these do).
const ALL_CHECKERS = BUILTIN_CHECKERS.map((c) => c.name).filter((n) => n !== 'recovery' && n !== 'model-mistakes');

describe.each([
  ['cockatiel-decorrelated', 'cockatiel'],
  ['p-retry-randomized', 'p-retry'],
])('faultline run --config %s', (config, library) => {
  it(`runs ${library}'s policy over library scenarios, judged by every checker, with a replay line that reproduces the history`, async () => {
    const out = `${config}-report`;
    // The libraries retry every error by default: a quota error is retried, which the checkers catch (R5).
    const run = await faultline(
      [
        'run',
        'payment-quota-exceeded',
        'read-timeout-retry',
        '--config',
        config,
        ...trialFlags({ k: 2, seed: 11, reporters: ['console', 'json'], out }),
      ],
      { cwd: dir.path },
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code, run.stderr).toBe(1);
    const r = await report(out);
    expect(r.cells.map((c) => `${c.scenario} × ${c.config}`)).toEqual([
      `payment-quota-exceeded × ${config}`,
      `read-timeout-retry × ${config}`,
    ]);
    for (const c of r.cells) expect(Object.keys(c.metrics.checkFailures)).toEqual(ALL_CHECKERS);
    // The report keeps the failing trials in full: every checker judged each of them.
    const trials = r.cells.flatMap((c) => c.trials);
    expect(trials.length).toBeGreaterThan(0);
    for (const t of trials) expect(t.checks.map((c) => c.name)).toEqual(ALL_CHECKERS);
    // The attempts went through the library, on the virtual clock: the quota error was retried, read-timeout-retry passed.
    expect(r.cells.find((c) => c.scenario === 'read-timeout-retry')?.status).toBe('passed');
    const failing = trials.filter((t) => t.status === 'failed');
    expect(failing.length).toBeGreaterThan(0);
    const trial = failing[0]!;
    expect(trial.status === 'failed' && trial.failed).toContain('retry-discipline');
    expect(trial.replay).toBe(
      `faultline replay payment-quota-exceeded --config ${config} --seed 11 --trial ${trial.index}`,
    );
    expect(run.stdout).toContain(`replay: ${trial.replay}`);
    // The default gates judge the library's cells as any other.
    expect(run.stdout).toContain(`✗ pass^k>=1 failed in 1 of 2 cells: payment-quota-exceeded × ${config}`);

    const replay = await cli([...trial.replay.split(' ').slice(1), '--json']);
    expect(replay.code, replay.stderr).toBe(1);
    expect(trial.history?.length).toBeGreaterThan(0);
    expect(JSON.parse(replay.stdout)).toEqual(trial.history);
    // The library's policy made the attempts: 9 retries after the first, where the rulebook stops at 3 attempts.
    const attempts = new Map<string, number>();
    for (const e of trial.history ?? [])
      if (e.type === 'attempt') attempts.set(e.call, (attempts.get(e.call) ?? 0) + 1);
    expect(Math.max(...attempts.values())).toBe(10);
  });
});

it('gives byte-identical JSON for the same seed under a library configuration, apart from the wallClock section', async () => {
  const args = [
    'run',
    'read-timeout-retry',
    'email-rate-limit-seconds',
    '--config',
    'cockatiel-decorrelated',
    '--config',
    'p-retry-randomized',
    '--k',
    '3',
    '--seed',
    '5',
    '--reporter',
    'json',
  ];
  const [a, b, one] = await Promise.all([
    cli([...args, '--out', 'same-a']),
    cli([...args, '--out', 'same-b']),
    // In this process, one trial after the other: the same history as spread over workers.
    cli([...args, '--out', 'same-one', '--workers', '0']),
  ]);
  for (const r of [a, b, one]) expect(r.stderr).not.toMatch(/\n\s+at /);
  const read = (out: string) => readFile(join(dir.path, out, 'faultline.json'), 'utf8');
  const head = (text: string): string => text.slice(0, text.indexOf('"wallClock"'));
  const [textA, textB, textOne] = await Promise.all([read('same-a'), read('same-b'), read('same-one')]);
  expect(head(textA).length).toBeGreaterThan(5_000);
  expect(head(textA) === head(textB)).toBe(true);
  expect(head(textA) === head(textOne)).toBe(true);
  // A different seed draws different jitter: the libraries' Math.random is the trial's seeded stream.
  const other = await cli([...args, '--out', 'other-seed', '--seed', '6']);
  expect(other.stderr).not.toMatch(/\n\s+at /);
  const attemptTimes = (text: string): number[] =>
    parseJsonReport(text)
      .cells.find((c) => c.scenario === 'email-rate-limit-seconds' && c.config === 'p-retry-randomized')!
      .trials.flatMap((t) => (t.history ?? []).filter((e) => e.type === 'attempt').map((e) => e.t));
  expect(attemptTimes(textA).length).toBeGreaterThan(0);
  expect(attemptTimes(await read('other-seed'))).not.toEqual(attemptTimes(textA));
});

it('stacks the layers of a layered configuration on a plain scenario, and the amplification checker flags them (R10)', async () => {
  // A mail service down for good, no SDK retries of its own, at most 3 deliveries per operation.
  await writeFile(
    join(dir.path, 'mail-down.yaml'),
    [
      'name: mail-down',
      'faults:',
      '  - match: { tool: send_email }',
      '    fault: { kind: unavailable, status: 503 }',
      'agent:',
      '  kind: scripted',
      '  task: Send the weekly report.',
      '  plan:',
      '    steps:',
      '      - tool: send_email',
      '        input: { messageId: weekly-1, to: team@example.com, subject: Weekly, body: ok }',
      '        subject: email:weekly-1',
      'budget: { maxDeliveriesPerOperation: 3 }',
      'goal: { outcome: [failed], effects: { email.sent: 0 } }',
      '',
    ].join('\n'),
  );
  const run = await cli([
    'compare',
    './mail-down.yaml',
    '--config',
    'rulebook',
    '--config',
    'nested-three-layers',
    '--k',
    '2',
    '--reporter',
    'console',
    '--reporter',
    'json',
    '--out',
    'layers',
  ]);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.code, run.stderr).toBe(1);
  const r = await report('layers');
  const cell = (config: string) => r.cells.find((c) => c.config === config)!;
  expect(cell('rulebook').status).toBe('passed');
  expect(cell('rulebook').metrics.amplification).toBe(3);
  const layered = cell('nested-three-layers');
  expect(layered.status).toBe('failed');
  expect(layered.metrics.checkFailures['amplification']).toBe(2);
  // 3 SDK sends × 3 runtime attempts × 3 agent calls, for one logical operation.
  expect(layered.metrics.amplification).toBe(27);
  const trial = layered.trials[0]!;
  const calls = (trial.history ?? []).filter((e) => e.type === 'tool_call');
  expect(calls).toHaveLength(3);
  // The agent's re-sends come from the same caller, as one agent re-sending.
  expect(new Set(calls.map((e) => (e.type === 'tool_call' ? e.caller : undefined))).size).toBe(1);
  const verdict = trial.checks.find((c) => c.name === 'amplification')!.verdict;
  expect(verdict.valid === false && verdict.message).toContain('reached the service 27 times (limit 3)');
  expect(run.stdout).toContain(
    'replay: faultline replay ./mail-down.yaml --config nested-three-layers --seed 1 --trial 0',
  );
});

describe('a bad configuration file', () => {
  it('names the file and the path inside it, exits 2, and shows no stack trace', async () => {
    await writeFile(join(dir.path, 'polly.yaml'), 'name: polly\nkind: polly\n');
    await writeFile(
      join(dir.path, 'wobbly.yaml'),
      'name: wobbly\nkind: cockatiel\nbackoff: { kind: exponential, generator: wobbly }\n',
    );
    await writeFile(join(dir.path, 'layers.yaml'), 'name: layered\nlayers: { sdkRetries: -1 }\n');
    const r = await cli([
      'run',
      'read-timeout-retry',
      '--config',
      './polly.yaml',
      '--config',
      './wobbly.yaml',
      '--config',
      './layers.yaml',
      '--k',
      '1',
      '--reporter',
      'console',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr).toContain('3 configuration files could not be loaded');
    expect(r.stderr).toContain(
      'polly.yaml: invalid retry configuration:\n  - kind: expected one of runtime, cockatiel, p-retry, got "polly"',
    );
    expect(r.stderr).toMatch(/wobbly\.yaml: invalid retry configuration:\n {2}- backoff\.generator: /);
    expect(r.stderr).toMatch(/layers\.yaml: invalid retry configuration:\n {2}- layers\.sdkRetries: /);
  });
});
