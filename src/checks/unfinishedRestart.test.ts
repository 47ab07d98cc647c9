import { describe, expect, it } from 'vitest';
import { recovery } from './recovery.js';
import { expectations, TrialBuilder } from './testing.js';

/** An agent killed by crash.agent at t=100ms and restarted, which then ends as `end` says. */
function restarted(): TrialBuilder {
  const b = new TrialBuilder();
  b.advance(100);
  b.add({
    type: 'agent_crash',
    trigger: 'after effect #1 of create_order',
    process: 1,
    request: 'http-1',
    tool: 'create_order',
  });
  b.add({ type: 'agent_restart', restart: 1 });
  b.advance(50);
  return b;
}

describe('recovery judges a restart after crash.agent', () => {
  it('fails a restart that never finished (it hung, or crashed on its own), with no heal expected', () => {
    const hung = recovery.check(
      restarted().build({ end: { kind: 'hung', at: 150, message: 'did not exit within timeoutMs 20000 ms' } }),
      expectations(),
    );
    expect(hung).toMatchObject({
      valid: false,
      message:
        'the agent was restarted at t=100ms after its crash (after effect #1 of create_order), and that restart never ' +
        'finished (the trial ended hung: did not exit within timeoutMs 20000 ms); expected it to resume and end',
    });
    const crashed = recovery.check(
      restarted().build({ end: { kind: 'crashed', message: 'killed by SIGSEGV' } }),
      expectations(),
    );
    expect(crashed.valid).toBe(false);
  });

  it('passes a restart that ended, whatever its outcome (goal-state judges that), and a trial with no restart', () => {
    expect(recovery.check(restarted().agentEnd('failed').build(), expectations()).valid).toBe(true);
    expect(recovery.check(new TrialBuilder().build({ end: { kind: 'hung', at: 0 } }), expectations()).valid).toBe(true);
  });
});
