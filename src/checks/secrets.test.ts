import { describe, expect, it } from 'vitest';
import { secrets } from './secrets.js';
import { expectations, TrialBuilder } from './testing.js';

const KEY = 'sk-live-123456';

describe('secrets', () => {
  it('passes a history that never mentions a secret, and ignores empty secrets', () => {
    const b = new TrialBuilder();
    b.call('charge', { paymentReference: 'p-1' }).attempt();
    b.agentEnd('completed', [], 'charged p-1');
    expect(secrets.check(b.build(), expectations({ secrets: [KEY, ''] }))).toEqual({ valid: true });
  });

  it('names the event, its type and call for each leak, without repeating the secret', () => {
    const b = new TrialBuilder();
    b.call('charge', { paymentReference: 'p-1', apiKey: KEY }).attempt();
    b.advance(5).add({ type: 'feedback', call: 'call-1', format: 'openai', isError: true, text: `401 for key ${KEY}` });
    b.agentEnd('completed', [], 'done');
    const verdict = secrets.check(b.build(), expectations({ secrets: ['unused', KEY] }));
    expect(verdict).toEqual({
      valid: false,
      message:
        'secret #1 (sk…) appears in event #0 (tool_call of call-1) at t=0ms; secret #1 (sk…) appears ' +
        'in event #5 (feedback of call-1) at t=5ms',
      evidence: [
        { secret: 1, seq: 0, type: 'tool_call', t: 0, call: 'call-1' },
        { secret: 1, seq: 5, type: 'feedback', t: 5, call: 'call-1' },
      ],
    });
    expect(JSON.stringify(verdict)).not.toContain(KEY);
  });

  it('passes a secret the agent keeps in its own checkpoint store (ctx.kv), and still fails it once the agent sends it out', () => {
    const b = new TrialBuilder();
    b.add({ type: 'kv', op: 'set', key: 'session', value: KEY });
    b.agentEnd('completed', [], 'done');
    expect(secrets.check(b.build(), expectations({ secrets: [KEY] }))).toEqual({ valid: true });
    b.call('charge', { apiKey: KEY }).attempt();
    expect(secrets.check(b.build(), expectations({ secrets: [KEY] }))).toMatchObject({ valid: false });
  });

  it("finds secrets with JSON-escaped characters in the agent's final message and in a crash message", () => {
    const odd = 'pass"word\n1';
    const b = new TrialBuilder();
    b.agentEnd('completed', [], `the password is ${odd}`);
    expect(secrets.check(b.build(), expectations({ secrets: [odd] }))).toMatchObject({
      valid: false,
      message: 'secret #0 (pa…) appears in event #0 (agent_end) at t=0ms',
    });
    const crashed = new TrialBuilder().build({ end: { kind: 'crashed', message: `bad token ${KEY}` } });
    expect(secrets.check(crashed, expectations({ secrets: [KEY] }))).toMatchObject({
      valid: false,
      message: "secret #0 (sk…) appears in the trial's end (crashed)",
    });
  });
});
