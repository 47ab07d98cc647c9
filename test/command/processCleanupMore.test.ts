import { describe, expect, it } from 'vitest';
import { markedProcesses } from './buildService.js';
import { expectCleanTimeouts, TRIALS, trials } from './processCleanupTrials.js';

describe('command tools under timeout (R19)', () => {
  it(`trials ${TRIALS / 2} to ${TRIALS - 1} of ${TRIALS} of a command that forks a grandchild and sleeps past its timeout leave no process behind`, async () => {
    expect(markedProcesses()).toBe(0);
    const results = await trials(false, TRIALS / 2, TRIALS);
    expect(markedProcesses()).toBe(0);
    await expectCleanTimeouts(results, TRIALS / 2);
  });
});
