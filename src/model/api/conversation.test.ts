import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeResult } from '../../runtime/feedback/structured.js';
import type { ToolResult } from '../../runtime/result.js';
import { unknownCreateOrder } from '../../runtime/feedback/unknownCreateOrder.testkit.js';
import { actionText, finalFromText, toolResultFromText } from './conversation.js';

describe('toolResultFromText', () => {
  it('reads back what the execution layer renders, for ok, error and unknown results', () => {
    const results: ToolResult[] = [
      { kind: 'ok', call: 'c1', tool: 'create_order', attempts: 1, value: { orderId: 'ord-1' } },
      {
        kind: 'error',
        call: 'c1',
        tool: 'create_order',
        attempts: 2,
        error: {
          error_type: 'rate_limit',
          message: 'slow down',
          retryable: true,
          retry_after_ms: 2_000,
          arguments: { a: 1 },
          attempts: 2,
          next_actions: ['retry_later'],
        },
      },
      unknownCreateOrder('c1', 1, 'no answer'),
    ];
    expect(results.map((r) => toolResultFromText('c1', 'create_order', describeResult(r)))).toEqual([
      results[0],
      results[1],
      results[2],
    ]);
  });

  it('takes JSON as the value, and reads plain text it cannot classify as unknown, never as success', () => {
    expect(toolResultFromText('c', 't', '{"ticketId":"tkt-1"}')).toEqual({
      kind: 'ok',
      call: 'c',
      tool: 't',
      attempts: 1,
      value: { ticketId: 'tkt-1' },
    });
    expect(toolResultFromText('c', 't', 'done')).toMatchObject({
      kind: 'unknown',
      unknown: { status: 'unknown', operation_id: '', next_action: 'ask_user' },
    });
  });
});

describe('actionText and finalFromText', () => {
  it('round-trip a final answer and a wait, and read any other text as a completed answer', () => {
    const final = {
      kind: 'final',
      outcome: 'handoff',
      message: 'quota',
      claims: [{ subject: 'orders:r', status: 'unknown' }],
    } as const;
    expect(finalFromText(actionText(final))).toEqual(final);
    expect(finalFromText(actionText({ kind: 'wait', ms: 500 }))).toEqual({ kind: 'wait', ms: 500 });
    expect(finalFromText('All done.')).toEqual({
      kind: 'final',
      outcome: 'completed',
      message: 'All done.',
      claims: [],
    });
  });

  it('an empty answer or an error text in its place is never a completion (it is unknown), whatever surrounds it', () => {
    const blank = fc.stringMatching(/^[ \t\n\r]{0,6}$/);
    const errorText = fc
      .tuple(
        fc.constantFrom(
          '[API ERROR] HTTP 500',
          '[api error]',
          '[Error: fetch failed]',
          'Error: 429 Too Many Requests',
          'APIError: 500 internal',
          'TypeError: terminated',
          'HTTP 503 Service Unavailable',
          'HTTP/1.1 502 Bad Gateway',
        ),
        fc.stringMatching(/^[ \t\n]{0,3}$/),
        fc.string({ maxLength: 40 }),
      )
      .map(([e, before, after]) => `${before}${e}${after}`);
    fc.assert(
      fc.property(fc.oneof(blank, errorText), (text) => {
        const read = finalFromText(text);
        expect(read).toMatchObject({ kind: 'final', outcome: 'unknown' });
      }),
      { numRuns: 200, seed: 43 },
    );
    // A plain answer that merely mentions an error is still the model's final word.
    for (const text of [
      'All done: no error this time.',
      'Errors were handled; order ord-1 created.',
      'The HTTP 500 earlier was retried.',
    ]) {
      expect(finalFromText(text)).toMatchObject({ outcome: 'completed', message: text });
    }
  });
});
