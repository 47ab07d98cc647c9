import { expect } from 'vitest';
import { defineScenario, rulebookDefault, runTrial, type TrialResult } from '../../src/public/index.js';
import { builds } from './buildService.js';

/**
 * R19's thousand trials of a command that forks a grandchild and sleeps past its timeout, run as
 * two files of 500 (processCleanup.test.ts and processCleanupMore.test.ts): one file took 27 to
 * 30 s, at the suite's bound for a file, most of it the kernel's work for the 3,000 processes.
 */
export const TRIALS = 1000;

/**
 * Trials in flight at once: each spends most of its time waiting on a real timeout. They run as
 * a pool (a new trial starts as soon as one ends), not in batches that each wait for their
 * slowest trial.
 */
const PARALLEL = 40;

export const scenario = (leak: boolean) =>
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

/** Trials `from` to `to` (exclusive) of the scenario, seed 7, as a pool of `PARALLEL`. */
export async function trials(leak: boolean, from: number, to: number): Promise<TrialResult[]> {
  const s = scenario(leak);
  const out: TrialResult[] = new Array<TrialResult>(to - from);
  let next = from;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < to; i = next++)
      out[i - from] = await runTrial({ scenario: s, config: rulebookDefault, runSeed: 7, trialIndex: i });
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, to - from) }, lane));
  return out;
}

export const verdictOf = (t: TrialResult) => t.checks.find((c) => c.name === 'process-cleanup')?.verdict;

/** Every trial passed process-cleanup: each command timed out, was stopped with SIGTERM, and left nothing. */
export function expectCleanTimeouts(results: readonly TrialResult[]): void {
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
}
