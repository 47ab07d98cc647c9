import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FAULT_KINDS, FaultSchema } from './fault.js';
import { FaultPlanSchema } from './plan.js';

/** The first issue of a rejected plan, as `path: message`. */
function firstIssue(plan: unknown): string {
  const result = FaultPlanSchema.safeParse(plan);
  if (result.success) throw new Error('expected the plan to be rejected');
  const issue = result.error.issues[0]!;
  return `${issue.path.join('.')}: ${issue.message}`;
}

describe('FaultPlanSchema', () => {
  it('accepts a plan with every field and fills an absent match with {}', () => {
    const plan = FaultPlanSchema.parse([
      {
        match: {
          tool: ['pay', 'refund'],
          purpose: 'call',
          call: [1, 2],
          attempt: 1,
          from: 0,
          to: 5_000,
          probability: 0.25,
        },
        fault: { kind: 'timeout' },
        times: 2,
      },
      { fault: { kind: 'rate_limit', retryAfter: 30, retryAfterAs: 'http-date' } },
    ]);
    expect(plan[1]).toEqual({ match: {}, fault: { kind: 'rate_limit', retryAfter: 30, retryAfterAs: 'http-date' } });
  });

  it('accepts response headers and a JSON or text body on every fault that answers with a status', () => {
    const answer = {
      headers: { 'Retry-After': '3', 'stripe-should-retry': 'false' },
      body: { error: { type: 'api_error', detail: [1, null, true] } },
    };
    const faults = [
      { kind: 'rate_limit', retryAfter: 1 },
      { kind: 'quota_exceeded' },
      { kind: 'unavailable', status: 503 },
      { kind: 'permission_denied', status: 403 },
      { kind: 'rejected' },
      { kind: 'not_found' },
      { kind: 'conflict' },
      { kind: 'server_error' },
      { kind: 'partial_write', lostAs: 'unavailable' },
    ];
    for (const f of faults) expect(FaultSchema.parse({ ...f, ...answer })).toEqual({ ...f, ...answer });
    expect(FaultSchema.parse({ kind: 'unavailable', status: 502, body: '<html>Bad gateway</html>' })).toMatchObject({
      body: '<html>Bad gateway</html>',
    });
  });

  it.each([
    [
      [{ match: { tool: '' }, fault: { kind: 'timeout' } }],
      '0.match.tool: Too small: expected string to have >=1 characters',
    ],
    [[{ match: { tol: 'pay' }, fault: { kind: 'timeout' } }], '0.match: Unrecognized key: "tol"'],
    [[{ match: { call: 0 }, fault: { kind: 'timeout' } }], '0.match.call: Too small: expected number to be >0'],
    [
      [{ match: { probability: 1.5 }, fault: { kind: 'timeout' } }],
      '0.match.probability: Too big: expected number to be <=1',
    ],
    [
      [{ match: { from: 10, to: 10 }, fault: { kind: 'timeout' } }],
      '0.match.to: `to` must be later than `from` (the window is [from, to))',
    ],
    [
      [{ fault: { kind: 'timeout' } }, { fault: { kind: 'duplicate', copies: 1 } }],
      '1.fault.copies: Too small: expected number to be >=2',
    ],
    [
      [{ fault: { kind: 'unavailable', status: 501 } }],
      '0.fault.status: Invalid option: expected one of 500|502|503|504|529',
    ],
    [
      [{ fault: { kind: 'network', code: 'ETIMEDOUT' } }],
      '0.fault.code: Invalid option: expected one of "ECONNRESET"|"ECONNREFUSED"|"EPIPE"',
    ],
    [[{ fault: { kind: 'timeout' }, times: 0 }], '0.times: Too small: expected number to be >0'],
    [
      [{ fault: { kind: 'not_found', headers: { 'Retry After': '1' } } }],
      '0.fault.headers.Retry After: "Retry After" is not a valid header name (letters, digits and !#$%&\'*+.^_`|~-)',
    ],
    [
      [{ fault: { kind: 'not_found', headers: { 'x-a': 'one\r\nx-b: two' } } }],
      '0.fault.headers.x-a: a header value cannot contain a line break',
    ],
    [
      [{ fault: { kind: 'not_found', headers: { 'x-a': 1 } } }],
      '0.fault.headers.x-a: Invalid input: expected string, received number',
    ],
    [
      [{ fault: { kind: 'partial_write', lostAs: 'timeout', headers: { 'x-a': '1' } } }],
      '0.fault.lostAs: only a partial write lost as `unavailable` has an answer to carry `headers` or `body`',
    ],
    [[{ fault: { kind: 'timeout', body: {} } }], '0.fault: Unrecognized key: "body"'],
    [[{ fault: { kind: 'server_error', body: { at: undefined, f: Number.NaN } } }], '0.fault.body: Invalid input'],
  ])('rejects %j at %s', (plan, expected) => {
    expect(firstIssue(plan)).toBe(expected);
  });

  it('rejects an unknown fault kind at its `kind`, listing the known ones', () => {
    expect(firstIssue([{ fault: { kind: 'explode' } }])).toMatch(
      /^0\.fault\.kind: Invalid discriminator value\. Expected 'timeout' \| 'latency'/,
    );
  });
});

describe('the fault JSON Schema', () => {
  it('describes headers and body on the answering kinds, with the body a named JSON value', () => {
    const schema = z.toJSONSchema(FaultPlanSchema, { io: 'input' }) as unknown as {
      items: { properties: { fault: { oneOf: { properties: Record<string, unknown> }[] } } };
      $defs: Record<string, unknown>;
    };
    const kinds = schema.items.properties.fault.oneOf.map((o) => o.properties);
    const withBody = kinds.filter((p) => 'body' in p).map((p) => (p['kind'] as { const: string }).const);
    expect(withBody).toEqual([
      'rate_limit',
      'quota_exceeded',
      'unavailable',
      'partial_write',
      'permission_denied',
      'rejected',
      'not_found',
      'conflict',
      'server_error',
    ]);
    expect(kinds.find((p) => 'body' in p)?.['body']).toMatchObject({ $ref: '#/$defs/JsonValue' });
    expect(Object.keys(schema.$defs)).toEqual(['JsonValue']);
  });
});

describe('FAULT_KINDS', () => {
  it('lists every kind of the union, in order', () => {
    expect(FAULT_KINDS).toEqual([
      'timeout',
      'latency',
      'network',
      'rate_limit',
      'quota_exceeded',
      'unavailable',
      'partial_write',
      'duplicate',
      'permission_denied',
      'rejected',
      'not_found',
      'conflict',
      'server_error',
      'malformed',
      'stale',
      'empty',
      'truncated',
      'wrong_value',
      'stream_cut',
      'stream_stall',
      'stream_malformed',
      'malformed_arguments',
      'invalid_arguments',
      'wrong_target',
      'unknown_tool',
      'refusal',
      'content_filter',
      'empty_text',
      'garbled',
      'error_in_200',
      'replayed',
      'context_length',
    ]);
    expect(FAULT_KINDS.length).toBe(FaultSchema.options.length);
  });
});
