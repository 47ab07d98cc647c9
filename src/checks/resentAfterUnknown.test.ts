import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { EventOf } from '../core/index.js';
import { resentAfterUnknown, resentProblem } from './resentAfterUnknown.js';
import { TrialBuilder } from './testing.js';
import { STATUS_TOOL, TrialIndex } from './trialIndex.js';

type AttemptEvent = EventOf<'attempt'>;
type Problem = { message: string; evidence: unknown };

/**
 * The definition, one unknown outcome at a time over every call and the whole history (the checker before the
 * lookups); the problem is written by the same `resentProblem`.
 */
function perOutcome(index: TrialIndex): Problem[] {
  const problems: Problem[] = [];
  for (const o of index.eventsOf('outcome')) {
    if (o.result !== 'unknown') continue;
    const input = index.inputText(o.call);
    if (input === undefined) continue;
    const resend = index.calls
      .filter(
        (c) =>
          c.seq > o.seq &&
          c.call !== o.call &&
          c.tool === o.tool &&
          index.inputText(c.call) === input &&
          c.caller === index.call(o.call)?.caller,
      )
      .map((c) => index.callAttemptsOf(c.call)[0])
      .find((a): a is AttemptEvent => a !== undefined);
    if (!resend) continue;
    const reconciled =
      index.attemptsOf(o.call).some((a) => a.purpose === 'status') ||
      index.events.some((e) => e.type === 'reconcile' && e.call === o.call);
    const queried = index.events.some(
      (e) =>
        e.seq > o.seq &&
        e.seq < resend.seq &&
        ((e.type === 'attempt' && e.purpose === 'status' && (e.tool === o.tool || e.call === o.call)) ||
          (e.type === 'reconcile' && (e.call === o.call || (o.op !== undefined && e.op === o.op))) ||
          (e.type === 'tool_call' && e.tool === STATUS_TOOL)),
    );
    if (reconciled || queried) continue;
    problems.push(resentProblem(o, resend, index.callAttemptsOf(o.call)));
  }
  return problems;
}

/**
 * One step of a random trial: a call (of two agents, two tools, two inputs) that ends some way, a status query of
 * either kind, or a reconcile.
 */
const step = fc.oneof(
  fc.record({
    kind: fc.constant('call' as const),
    caller: fc.constantFrom(undefined, 'agent-0', 'agent-1'),
    tool: fc.constantFrom('create_order', 'update_record'),
    ref: fc.constantFrom('a', 'b'),
    result: fc.constantFrom('ok', 'unknown', 'error'),
    sent: fc.boolean(),
    op: fc.option(fc.constantFrom('op-1', 'op-2'), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('status-call' as const) }),
  fc.record({
    kind: fc.constant('status-attempt' as const),
    call: fc.integer({ min: 1, max: 10 }),
    tool: fc.constantFrom('create_order', 'update_record'),
  }),
  fc.record({
    kind: fc.constant('reconcile' as const),
    call: fc.integer({ min: 1, max: 10 }),
    op: fc.constantFrom('op-1', 'op-2', 'op-3'),
  }),
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

function trialOf(steps: readonly Step[]): TrialBuilder {
  const b = new TrialBuilder();
  let calls = 0;
  let requests = 1000;
  for (const s of steps) {
    switch (s.kind) {
      case 'call': {
        calls++;
        b.add({
          type: 'tool_call',
          call: `call-${calls}`,
          tool: s.tool,
          risk: 'write',
          honoursKeys: true,
          input: { clientReference: s.ref },
          ...(s.caller !== undefined && { caller: s.caller }),
        });
        if (s.sent)
          b.add({
            type: 'attempt',
            call: `call-${calls}`,
            attempt: 1,
            tool: s.tool,
            purpose: 'call',
            request: `req-${++requests}`,
            idempotencyKey: `k-${calls}`,
          });
        b.add({
          type: 'outcome',
          call: `call-${calls}`,
          tool: s.tool,
          result: s.result as 'ok',
          attempts: s.sent ? 1 : 0,
          ...(s.op !== undefined && { op: s.op }),
        });
        break;
      }
      case 'status-call':
        b.call(STATUS_TOOL, { operation_id: 'op-1' }, 'read');
        calls++;
        break;
      case 'status-attempt':
        b.add({
          type: 'attempt',
          call: `call-${s.call}`,
          attempt: 1,
          tool: s.tool,
          purpose: 'status',
          request: `req-${++requests}`,
        });
        break;
      case 'reconcile':
        b.add({ type: 'reconcile', call: `call-${s.call}`, op: s.op, found: 'pending' });
        break;
    }
    b.advance(5);
  }
  return b;
}

describe('resentAfterUnknown', () => {
  test.prop([fc.array(step, { maxLength: 40 })])(
    'finds the problems a scan per unknown outcome finds, in the same order',
    (steps) => {
      const record = trialOf(steps).build();
      expect(resentAfterUnknown(TrialIndex.of({ ...record }))).toEqual(perOutcome(TrialIndex.of({ ...record })));
    },
  );

  it("names another agent's resend of the same input as none of this agent's business", () => {
    const b = new TrialBuilder();
    const send = (call: string, caller: string, request: string): void => {
      b.add({
        type: 'tool_call',
        call,
        tool: 'create_order',
        risk: 'write',
        honoursKeys: true,
        input: { clientReference: 'a' },
        caller,
      });
      b.add({ type: 'attempt', call, attempt: 1, tool: 'create_order', purpose: 'call', request });
    };
    send('call-1', 'agent-0', 'req-1');
    b.add({ type: 'outcome', call: 'call-1', tool: 'create_order', result: 'unknown', attempts: 1 });
    send('call-2', 'agent-1', 'req-2');
    expect(resentAfterUnknown(TrialIndex.of(b.build()))).toEqual([]);
    send('call-3', 'agent-0', 'req-3');
    expect(resentAfterUnknown(TrialIndex.of(b.build())).map((p) => p.message)).toEqual([
      'create_order call-3 attempt 1 (req-3) at t=0ms resent the input of call-1 after its unknown ' +
        'outcome at t=0ms without querying its status first (R21, R27)',
    ]);
  });
});
