import { describe, expect, it } from 'vitest';
import { MARKER, markedProcesses } from './buildService.js';
import { asPrinted, expectCleanTimeouts, printedTrial, TRIALS, trials, verdictOf } from './processCleanupTrials.js';

describe('command tools under timeout (R19)', () => {
  it(`trials 0 to ${TRIALS / 2 - 1} of ${TRIALS} of a command that forks a grandchild and sleeps past its timeout leave no process behind`, async () => {
    expect(markedProcesses()).toBe(0);
    const results = await trials(false, 0, TRIALS / 2);
    expect(markedProcesses()).toBe(0);
    await expectCleanTimeouts(results, 0);
    // The same seed gives the same history, pids and wall time nowhere in it (each run's command having printed).
    const again = await printedTrial(3);
    expect(again.history).toEqual((await asPrinted(results[3]!, 3)).history);
  });

  it('fails process-cleanup when a command leaves its grandchild behind, and kills it at the trial end', async () => {
    const results = await trials(true, 0, 20);
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
