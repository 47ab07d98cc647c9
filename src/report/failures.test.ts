import { describe, expect, it } from 'vitest';
import { failedTrialLines, failingCells, isFailed, verdictLines } from './failures.js';
import { makeTrial, sampleRun } from './testing.js';

describe('failures', () => {
  it('finds the failing cells and the checks that failed in them', () => {
    const failing = failingCells(sampleRun().cells);
    expect(failing.map((f) => [f.cell.scenario, f.cell.config, f.failed.map((t) => t.trialIndex), f.checks])).toEqual([
      ['order-partial-write', 'naive', [1, 3], ['duplicates', 'budget']],
    ]);
  });

  it('writes one line per verdict, marking passed, failed and undecided', () => {
    const trial = makeTrial({
      scenario: 's',
      config: 'c',
      runSeed: 1,
      trialIndex: 2,
      failures: [
        { check: 'duplicates', message: 'twice', evidence: [{ seq: 1 }] },
        { check: 'honesty', message: 'cannot tell', undecided: true },
      ],
    });
    expect(verdictLines(trial.checks)).toEqual([
      '✓ budget',
      '✗ duplicates: twice',
      '✓ goal-state',
      '? honesty (undecided): cannot tell',
    ]);
    expect(isFailed(trial) && failedTrialLines(trial)).toEqual([
      'trial 2 (seed 1002, end agent_ended): failed duplicates, honesty',
      '  duplicates: twice',
      '    evidence: [{"seq":1}]',
      '  honesty (undecided): cannot tell',
      '  replay: faultline replay s --config c --seed 1 --trial 2',
    ]);
  });
});
