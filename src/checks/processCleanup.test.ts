import { describe, expect, it } from 'vitest';
import { History, VirtualClock } from '../core/index.js';
import type { TrialRecord } from './record.js';
import { processCleanup } from './processCleanup.js';
import { TIMED_OUT_END } from '../world/command/timedOutEnd.testkit.js';
import { expectations } from './testing.js';

function recordOf(build: (h: History) => void): TrialRecord {
  const history = new History(new VirtualClock(0));
  build(history);
  return {
    scenario: 's',
    config: 'c',
    trialIndex: 0,
    seed: 1,
    history: history.events,
    snapshot: { services: {}, ledger: [], hash: '' },
    end: { kind: 'agent_ended', outcome: 'completed' },
  };
}

const argv = ['sh', '-c', 'sleep 9 & sleep 9'];

describe('process-cleanup', () => {
  it('passes when every command group was gone at the trial end', () => {
    const record = recordOf((h) => {
      h.record({ type: 'command_start', command: 'cmd-1', service: 'builds', argv });
      h.record(TIMED_OUT_END);
    });
    expect(processCleanup.check(record, expectations())).toEqual({ valid: true });
  });

  it('fails naming each command whose processes outlived the trial', () => {
    const record = recordOf((h) => {
      h.record({ type: 'command_start', command: 'cmd-1', service: 'builds', argv });
      h.record({
        type: 'command_end',
        command: 'cmd-1',
        result: 'exited',
        exitCode: 0,
        signal: null,
        stdout: '',
        stderr: '',
      });
      h.record({ type: 'command_start', command: 'cmd-2', service: 'builds', argv });
      h.record({ type: 'process_left', command: 'cmd-1', argv });
      h.record({ type: 'process_left', command: 'cmd-2', argv });
    });
    const verdict = processCleanup.check(record, expectations());
    expect(verdict.valid).toBe(false);
    expect(verdict.valid === false && verdict.message).toContain(
      "cmd-1 (sh -c sleep 9 & sleep 9) left a process alive at the trial's end: its command ended (exited)",
    );
    expect(verdict.valid === false && verdict.message).toContain('cmd-2');
    expect(verdict.valid === false && verdict.evidence).toMatchObject([
      { command: 'cmd-1', started: 0, ended: 1 },
      { command: 'cmd-2', started: 2 },
    ]);
  });
});
