import { describe, expect, it } from 'vitest';
import { defineScenario, rulebookDefault, runTrial, type TrialResult } from '../../src/public/index.js';
import { builds, MARKER, markedProcesses } from './buildService.js';

const TRIALS = 1000;
/**
 * Trials in flight at once: each spends most of its time waiting on a real timeout. They run as
 * a pool (a new trial starts as soon as one ends), not in batches that each wait for their
 * slowest trial.
 */
const PARALLEL = 40;

const scenario = (leak: boolean) =>
  defineScenario({
    name: leak ? 'build-leaks-grandchild' : 'build-times-out',
    services: [builds],
    // Generous timeouts: on a loaded machine a 30ms command may not have printed yet.
    world: { builds: { leak, timeoutMs: leak ? 10_000 : 250 } },
    checks: ['process-cleanup'],
    agent: {
      kind: 'scripted',
      task: 'Build the app target.',
      plan: { steps: [{ tool: 'run_build', input: { target: 'app' } }] },
    },
  });

async function trials(leak: boolean, n: number): Promise<TrialResult[]> {
  const s = scenario(leak);
  const out: TrialResult[] = new Array<TrialResult>(n);
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < n; i = next++)
      out[i] = await runTrial({ scenario: s, config: rulebookDefault, runSeed: 7, trialIndex: i });
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, n) }, lane));
  return out;
}

const verdictOf = (t: TrialResult) => t.checks.find((c) => c.name === 'process-cleanup')?.verdict;

describe('command tools under timeout (R19)', () => {
  it(`${TRIALS} trials of a command that forks a grandchild and sleeps past its timeout leave no process behind`, async () => {
    expect(markedProcesses()).toBe(0);
    const results = await trials(false, TRIALS);
    expect(markedProcesses()).toBe(0);
    expect(results.filter((t) => verdictOf(t)?.valid !== true)).toEqual([]);
    for (const t of results) {
      const ends = t.history.filter((e) => e.type === 'command_end');
      expect(ends.length).toBeGreaterThan(0);
      for (const end of ends) {
        expect(end).toMatchObject({
          result: 'timed_out',
          timeoutMs: 250,
          killedWith: 'SIGTERM',
          signal: 'SIGTERM',
          exitCode: null,
          stdout: 'forked app\n',
        });
      }
      expect(t.history.some((e) => e.type === 'process_left')).toBe(false);
    }
    // The same seed gives the same history, pids and wall time nowhere in it.
    const again = await runTrial({ scenario: scenario(false), config: rulebookDefault, runSeed: 7, trialIndex: 3 });
    expect(again.history).toEqual(results[3]!.history);
  });

  it('fails process-cleanup when a command leaves its grandchild behind, and kills it at the trial end', async () => {
    const results = await trials(true, 20);
    expect(markedProcesses()).toBe(0);
    for (const t of results) {
      const verdict = verdictOf(t);
      expect(verdict?.valid).toBe(false);
      expect(verdict && verdict.valid === false ? verdict.message : '').toContain(
        `cmd-1 (sh -c sleep ${MARKER} >/dev/null 2>&1 & echo forked app) left a process alive at the trial's end`,
      );
      expect(t.history.filter((e) => e.type === 'command_end')).toMatchObject([
        { result: 'exited', exitCode: 0, stdout: 'forked app\n' },
      ]);
    }
  });
});
