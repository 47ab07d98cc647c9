import { describe, expect, it } from 'vitest';
import { History, type CallResultKind, type Clock, type ErrorData, type Risk } from '../core/index.js';
import { judgeProxiedCalls } from './judgeProxiedCalls.js';

/** A proxy session's history, call by call, as `McpFaultProxy` records it. */
function session(
  calls: readonly {
    tool: string;
    risk: Risk;
    input: unknown;
    at: number;
    deliveries: number;
    result: CallResultKind;
    error?: ErrorData;
    rule?: number;
  }[],
): History {
  let now = 0;
  // Only `now` is read: the times the proxy's real clock would have given.
  const h = new History({ now: () => now } as unknown as Clock);
  calls.forEach((c, i) => {
    now = c.at;
    const call = `call-${i + 1}`;
    const request = `req-${i + 1}`;
    h.record({ type: 'tool_call', call, tool: c.tool, risk: c.risk, honoursKeys: false, input: c.input });
    h.record({ type: 'attempt', call, attempt: 1, tool: c.tool, purpose: 'call', request });
    if (c.rule !== undefined)
      h.record({
        type: 'fault',
        request,
        tool: c.tool,
        rule: c.rule,
        fault: { kind: 'duplicate', copies: 2 },
        call,
        attempt: 1,
      });
    for (let copy = 0; copy < c.deliveries; copy++)
      h.record({ type: 'delivery', request, tool: c.tool, copy, call, attempt: 1 });
    h.record({
      type: 'outcome',
      call,
      tool: c.tool,
      result: c.result,
      attempts: 1,
      ...(c.error && { error: c.error }),
    });
  });
  return h;
}

const verdicts = (h: History): Record<string, unknown> =>
  Object.fromEntries(judgeProxiedCalls(h.events).map((c) => [c.name, c.verdict.valid]));
const lost: ErrorData = { kind: 'timeout', message: 'the server committed; the answer was lost', retryable: true };
const note = { id: 'n1', text: 'one' };

describe('judgeProxiedCalls', () => {
  it('passes a session with no resend', () => {
    const h = session([
      { tool: 'write_note', risk: 'write', input: note, at: 0, deliveries: 1, result: 'ok' },
      { tool: 'read_notes', risk: 'read', input: {}, at: 10, deliveries: 1, result: 'ok' },
    ]);
    expect(verdicts(h)).toEqual({ duplicates: true, 'unknown-outcomes': true, 'retry-after': true });
  });

  it('fails a write resent after its lost answer, with the calls and requests, whatever the key order of its arguments', () => {
    const h = session([
      { tool: 'write_note', risk: 'write', input: note, at: 0, deliveries: 1, result: 'unknown', error: lost },
      { tool: 'write_note', risk: 'write', input: { text: 'one', id: 'n1' }, at: 600, deliveries: 1, result: 'ok' },
    ]);
    const [dup, unknown] = judgeProxiedCalls(h.events);
    expect(dup!.verdict).toMatchObject({
      valid: false,
      message: expect.stringContaining(
        'write_note (not idempotent) reached the server 2 times with the same arguments (calls call-1, call-2; requests req-1, req-2)',
      ),
    });
    expect(unknown!.verdict).toMatchObject({
      valid: false,
      message: expect.stringContaining('write_note call-2 (req-2) resent the arguments of call-1'),
    });
  });

  it('leaves an idempotent write, a read in between and a definite error alone; an unreconciled unknown is undecided', () => {
    expect(
      verdicts(
        session([
          {
            tool: 'set_note',
            risk: 'idempotent-write',
            input: note,
            at: 0,
            deliveries: 1,
            result: 'unknown',
            error: lost,
          },
          { tool: 'set_note', risk: 'idempotent-write', input: note, at: 5, deliveries: 1, result: 'ok' },
        ]),
      ),
    ).toMatchObject({ duplicates: true, 'unknown-outcomes': false });
    expect(
      verdicts(
        session([
          {
            tool: 'write_note',
            risk: 'write',
            input: note,
            at: 0,
            deliveries: 1,
            result: 'error',
            error: { kind: 'invalid_argument', message: 'no', retryable: false },
          },
          { tool: 'write_note', risk: 'write', input: note, at: 5, deliveries: 1, result: 'ok' },
        ]),
      ),
    ).toMatchObject({ duplicates: true });
    expect(
      verdicts(
        session([
          { tool: 'write_note', risk: 'write', input: note, at: 0, deliveries: 1, result: 'unknown', error: lost },
          { tool: 'read_notes', risk: 'read', input: {}, at: 5, deliveries: 1, result: 'ok' },
        ]),
      ),
    ).toEqual({ duplicates: true, 'unknown-outcomes': true, 'retry-after': true });
    expect(
      verdicts(
        session([
          { tool: 'write_note', risk: 'write', input: note, at: 0, deliveries: 1, result: 'unknown', error: lost },
        ]),
      ),
    ).toMatchObject({ 'unknown-outcomes': 'unknown' });
  });

  it("fails a duplicate delivery's copies, naming the fault rule", () => {
    const [dup] = judgeProxiedCalls(
      session([{ tool: 'write_note', risk: 'write', input: note, at: 0, deliveries: 2, result: 'ok', rule: 3 }]).events,
    );
    expect(dup!.verdict).toMatchObject({
      valid: false,
      message: expect.stringContaining('a duplicate delivery (fault rule 3) made the server run call-1 more than once'),
    });
  });

  it('fails a call inside a refusal’s Retry-After, and passes one after it', () => {
    const refused: ErrorData = {
      kind: 'rate_limit',
      status: 429,
      message: 'slow down',
      retryable: true,
      retryAfterMs: 1000,
    };
    const early = session([
      { tool: 'read_notes', risk: 'read', input: {}, at: 0, deliveries: 0, result: 'error', error: refused },
      { tool: 'read_notes', risk: 'read', input: {}, at: 400, deliveries: 1, result: 'ok' },
    ]);
    expect(judgeProxiedCalls(early.events)[2]!.verdict).toMatchObject({
      valid: false,
      message: expect.stringContaining(
        'read_notes call-2 arrived at t=400ms, 400ms after call-1 was refused (rate_limit) with Retry-After 1000ms',
      ),
    });
    const late = session([
      { tool: 'read_notes', risk: 'read', input: {}, at: 0, deliveries: 0, result: 'error', error: refused },
      { tool: 'read_notes', risk: 'read', input: {}, at: 1000, deliveries: 1, result: 'ok' },
    ]);
    expect(verdicts(late)).toMatchObject({ 'retry-after': true });
  });
});
