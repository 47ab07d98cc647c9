import { describe, expect, it } from 'vitest';
import { describeEvent, formatOffset, formatTimeline } from './timeline.js';
import { sampleHistory, stamp } from './testing.js';

describe('formatTimeline', () => {
  it('prints one line per event with its virtual time, indented by call and wire', () => {
    const history = sampleHistory({ scenario: 'order-partial-write', config: 'naive', trialIndex: 1 }, 42001, true);
    expect(formatTimeline(history).split('\n')).toEqual([
      '+0.000s   trial 1 of order-partial-write under naive (seed 42001)',
      '+0.000s   turn 1: calls create_order (call-1)',
      '+0.000s     call-1 create_order [write] {"ref":"ref-1"}',
      '+0.000s     call-1 create_order attempt 1 (req-1, key idem-1)',
      '+0.000s       fault partial_write(lostAs=timeout) on req-1 (rule 0)',
      '+0.000s       delivered req-1 to create_order',
      '+0.000s       effect order.created key=ref-1 (#0)',
      '+10.000s      response to req-1 lost',
      '+10.000s    call-1 attempt 1 (req-1) failed: timeout',
      '+10.000s    wait 412ms (backoff)',
      '+10.412s    call-1 create_order attempt 2 (req-2, key idem-2)',
      '+10.412s      delivered req-2 to create_order',
      '+10.412s      effect order.created key=ref-1 (#1)',
      '+10.462s      response to req-2: ok 201',
      '+10.462s    call-1 attempt 2 (req-2) ok',
      '+10.462s    call-1 create_order → ok after 2 attempts',
      '+10.462s    call-1 feedback (openai): "{\\"id\\":\\"ord-1\\"}"',
      '+10.462s  agent ended: completed "Order placed." (claims orders:ref-1 succeeded)',
      '+10.462s  trial end: agent_ended',
    ]);
  });

  it('describes the other events', () => {
    const rateLimited = {
      kind: 'rate_limit' as const,
      message: '429',
      retryable: true,
      status: 429,
      retryAfterMs: 2000,
    };
    const lines = formatTimeline(
      stamp([
        { t: 0, type: 'model_turn', turn: 2, action: 'wait', waitMs: 500 },
        { t: 1, type: 'model_turn', turn: 3, action: 'final' },
        {
          t: 1,
          type: 'model_error',
          error: { kind: 'unavailable', message: 'overloaded', retryable: true, status: 529 },
        },
        {
          t: 1,
          type: 'operation',
          op: 'op-1',
          call: 'call-2',
          tool: 'charge',
          state: 'unknown',
          idempotencyKey: 'k-1',
          businessKey: 'pay-9',
        },
        { t: 1, type: 'attempt', call: 'call-2', attempt: 1, tool: 'charge', purpose: 'status', request: 'req-9' },
        {
          t: 1,
          type: 'fault',
          request: 'req-9',
          tool: 'charge',
          rule: 2,
          fault: { kind: 'duplicate', copies: 2, concurrent: true },
        },
        { t: 1, type: 'fault', request: 'req-9', tool: 'charge', rule: 3, fault: { kind: 'timeout' } },
        { t: 1, type: 'delivery', request: 'req-9', tool: 'charge', copy: 1 },
        {
          t: 1,
          type: 'response',
          request: 'req-9',
          tool: 'charge',
          result: 'error',
          status: 429,
          message: 'slow down',
        },
        {
          t: 1,
          type: 'attempt_end',
          call: 'call-2',
          attempt: 1,
          purpose: 'status',
          request: 'req-9',
          result: 'error',
          error: rateLimited,
        },
        { t: 1, type: 'retry_wait', call: 'call-2', attempt: 1, ms: 2000, reason: 'retry_after' },
        { t: 2001, type: 'give_up', call: 'call-2', reason: 'max_attempts', error: rateLimited },
        { t: 2001, type: 'reconcile', call: 'call-2', op: 'op-1', found: 'pending' },
        {
          t: 2001,
          type: 'outcome',
          call: 'call-2',
          tool: 'charge',
          result: 'unknown',
          attempts: 1,
          error: rateLimited,
        },
        { t: 2001, type: 'feedback', call: 'call-2', format: 'claude', isError: true, text: 'unknown' },
        { t: 2001, type: 'agent_wait', ms: 1000 },
        { t: 3001, type: 'trial_end', status: 'crashed', message: 'Error: boom' },
      ]),
    ).split('\n');
    expect(lines).toEqual([
      '+0.000s  turn 2: wait 500ms',
      '+0.001s  turn 3: final answer',
      '+0.001s  model error: unavailable (529): overloaded',
      '+0.001s    call-2 operation op-1 unknown, key k-1, business key pay-9',
      '+0.001s    call-2 charge status query attempt 1 (req-9)',
      '+0.001s      fault duplicate(copies=2, concurrent=true) on req-9 (rule 2)',
      '+0.001s      fault timeout on req-9 (rule 3)',
      '+0.001s      delivered req-9 to charge (copy 2)',
      '+0.001s      response to req-9: error 429 "slow down"',
      '+0.001s    call-2 status query attempt 1 (req-9) failed: rate_limit (429, retry after 2000ms)',
      '+0.001s    wait 2000ms (Retry-After)',
      '+2.001s    call-2 gave up: max_attempts after rate_limit (429, retry after 2000ms)',
      '+2.001s    call-2 reconcile op-1: pending',
      '+2.001s    call-2 charge → unknown after 1 attempt: rate_limit (429, retry after 2000ms)',
      '+2.001s    call-2 feedback (claude, error): "unknown"',
      '+2.001s  agent waits 1000ms',
      '+3.001s  trial end: crashed: Error: boom',
    ]);
  });

  it('formats offsets in seconds with millisecond precision', () => {
    expect([formatOffset(0), formatOffset(1250), formatOffset(600_000)]).toEqual(['+0.000s', '+1.250s', '+600.000s']);
    expect(formatTimeline([])).toBe('');
  });
});

describe('a checkpoint store write', () => {
  it('shows the text stored as it is, once (it is not JSON-encoded again), on one line', () => {
    const kv = (value: string) => describeEvent({ seq: 0, t: 0, type: 'kv', op: 'set', key: 'order:po-1', value })[1];
    expect(kv('{"status":"pending"}')).toBe('checkpoint store: order:po-1 = {"status":"pending"}');
    expect(kv('step 2\nof 3')).toBe('checkpoint store: order:po-1 = "step 2\\nof 3"');
    expect(kv('x'.repeat(100))).toBe(`checkpoint store: order:po-1 = ${'x'.repeat(79)}…`);
  });
});
