import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonReport } from '../../src/report/json.js';
import { faultline, type Finished } from './faultline.js';
import { inProcess } from './inProcess.js';
import { trialFlags } from './trialFlags.js';
import { userProject } from './userProject.js';

/**
 * Heal, then judge recovery, through the real CLI from a user's project: the mail API throttles
 * every send (429, Retry-After: 2) until it heals at t=3s. A runtime that honours the wait and
 * keeps going recovers a second after the heal; one whose fixed 30 s backoff was set during the
 * outage reaches the goal too, 27 s after the heal, and the recovery gate says so when pass^k alone
 * would not; one that never retries never gets there.
 */
const SCENARIO = `name: mail-outage
faults:
  - match: { tool: send_email }
    fault: { kind: rate_limit, retryAfter: 2 }
heal: { atMs: 3000 }
recovery: { withinMs: 5000, maxCallsAfter: 1, maxStaleWaitMs: 2500 }
agent:
  kind: scripted
  task: Send the maintenance notice.
  plan:
    steps:
      - tool: send_email
        input: { messageId: notice-1, to: ops@example.com, subject: Maintenance, body: Back at noon }
        subject: email:notice-1
goal:
  effects: { email.sent: 1 }
`;
const PATIENT = `name: patient
retryOn: [timeout, network, rate_limit, unavailable]
maxAttempts: 5
backoff: { kind: exponential, baseMs: 200, capMs: 2000, jitter: full }
retryAfter: { mode: honour, maxMs: 10000 }
idempotency: { keys: per-operation, writes: with-honoured-key }
`;
const SLOW = `name: slow-backoff
retryOn: [timeout, network, rate_limit, unavailable]
maxAttempts: 3
backoff: { kind: fixed, delayMs: 30000 }
retryAfter: { mode: ignore }
idempotency: { keys: per-operation, writes: with-honoured-key }
`;

let project: Awaited<ReturnType<typeof userProject>>;
let good: Finished;
let slow: Finished;
let never: Finished;
const GATES = ['--gate', 'recovery>=0.9', '--gate', 'recovery_p95_ms<=5000', '--gate', 'recovery>=0.3@95%'];
/**
 * The patient runtime's run goes through the real binary; the other two and the replay (the same
 * path, and no code of the user's) run the CLI's entry in this process (./inProcess.ts).
 */
const run = (config: string, out: string, cli: typeof faultline = inProcess): Promise<Finished> =>
  cli(
    [
      'run',
      'scenarios/mail-outage.yaml',
      '--config',
      config,
      ...GATES,
      ...trialFlags({ k: 4, seed: 3, reporters: ['console', 'json'], out }),
    ],
    { cwd: project.path },
  );

beforeAll(async () => {
  project = await userProject('heal-recovery', {
    'scenarios/mail-outage.yaml': SCENARIO,
    'configs/patient.yaml': PATIENT,
    'configs/slow-backoff.yaml': SLOW,
  });
  [good, slow, never] = await Promise.all([
    run('configs/patient.yaml', 'good', faultline),
    run('configs/slow-backoff.yaml', 'slow'),
    run('no-retry', 'never'),
  ]);
});
afterAll(() => project.cleanup());

const report = async (out: string) =>
  parseJsonReport(await readFile(join(project.path, out, 'faultline.json'), 'utf8'));

describe('faultline run with heal and a recovery gate', () => {
  it('passes a runtime that recovers soon after the heal, and shows its time to recover', async () => {
    expect(good.stderr).not.toMatch(/\n\s+at /);
    expect(good.code, good.stdout).toBe(0);
    expect(good.stdout).toContain('recovery after the heal');
    expect(good.stdout).toMatch(/✓ mail-outage +patient +4\/4 +1\.000 \[0\.40, 1\.00\] +1\.000s +1\.000s +1\.000s +0/);
    expect(good.stdout).toContain('✓ recovery>=0.9 held in 1 cell (worst 1)');
    expect(good.stdout).toContain('✓ recovery_p95_ms<=5000 held in 1 cell (worst 1000)');
    expect(good.stdout).toMatch(/✓ recovery>=0\.3@95% held in 1 cell \(worst 95% lower bound 0\.3976\)/);
    const cell = (await report('good')).cells[0]!;
    expect(cell.metrics.recovery).toMatchObject({
      trials: 4,
      recovered: 4,
      timeToRecoverMs: { p50: 1_000, p95: 1_000, max: 1_000 },
      never: 0,
    });
    expect(cell.trials.every((t) => t.stats.recovery?.timeToRecoverMs === 1_000)).toBe(true);
  });

  it('fails, with the exit code of a failed gate, a runtime whose backoff outlives the outage, naming the stale wait', async () => {
    expect(slow.code, slow.stdout).toBe(1);
    expect(slow.stdout).toContain('✗ recovery>=0.9 failed in 1 of 1 cells: mail-outage × slow-backoff (0)');
    expect(slow.stdout).toContain('✗ recovery_p95_ms<=5000 failed in 1 of 1 cells: mail-outage × slow-backoff (27000)');
    expect(slow.stdout).toContain(
      'the goal was reached at t=30000ms, 27000ms after the heal at t=3000ms; expected within 5000ms',
    );
    const r = await report('slow');
    // The goal itself was reached: only the recovery checker failed.
    expect(r.cells[0]!.metrics.checkFailures).toMatchObject({ 'goal-state': 0, recovery: 4 });
    const verdict = r.cells[0]!.trials[0]!.checks.find((c) => c.name === 'recovery')!.verdict;
    expect(verdict.valid === false && verdict.message).toContain(
      'the agent was still waiting 27000ms after the heal at t=3000ms, waiting on a call-1 backoff wait of 30000ms from t=0ms: its next request came at t=30000ms; expected at most 2500ms',
    );
  });

  it('fails a runtime that gives up during the outage: never recovered', async () => {
    expect(never.code, never.stdout).toBe(1);
    expect(never.stdout).toMatch(/✗ mail-outage +no-retry +0\/4 +0\.000 \[0\.00, 0\.60\] +never +never +never +0/);
    expect(never.stdout).toContain('✗ recovery_p95_ms<=5000 failed in 1 of 1 cells: mail-outage × no-retry (n/a)');
  });

  it('replays a trial with the heal in its timeline', async () => {
    const replay = await inProcess(
      ['replay', 'scenarios/mail-outage.yaml', '--config', 'configs/patient.yaml', '--seed', '3', '--trial', '0'],
      { cwd: project.path },
    );
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toMatch(/\+3\.000s +heal: the faults end here \(its 1 fault rule stops matching\)/);
    expect(replay.stdout).toMatch(/✓ recovery/);
  });
});
