import { describe, expect, it } from 'vitest';
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
      { match: { tool: ['pay', 'refund'], purpose: 'call', call: [1, 2], attempt: 1, from: 0, to: 5_000, probability: 0.25 }, fault: { kind: 'timeout' }, times: 2 },
      { fault: { kind: 'rate_limit', retryAfter: 30, retryAfterAs: 'http-date' } },
    ]);
    expect(plan[1]).toEqual({ match: {}, fault: { kind: 'rate_limit', retryAfter: 30, retryAfterAs: 'http-date' } });
  });

  it.each([
    [[{ match: { tool: '' }, fault: { kind: 'timeout' } }], '0.match.tool: Too small: expected string to have >=1 characters'],
    [[{ match: { tol: 'pay' }, fault: { kind: 'timeout' } }], '0.match: Unrecognized key: "tol"'],
    [[{ match: { call: 0 }, fault: { kind: 'timeout' } }], '0.match.call: Too small: expected number to be >0'],
    [[{ match: { probability: 1.5 }, fault: { kind: 'timeout' } }], '0.match.probability: Too big: expected number to be <=1'],
    [[{ match: { from: 10, to: 10 }, fault: { kind: 'timeout' } }], '0.match.to: `to` must be later than `from` (the window is [from, to))'],
    [[{ fault: { kind: 'timeout' } }, { fault: { kind: 'duplicate', copies: 1 } }], '1.fault.copies: Too small: expected number to be >=2'],
    [[{ fault: { kind: 'unavailable', status: 501 } }], '0.fault.status: Invalid option: expected one of 500|502|503|504|529'],
    [[{ fault: { kind: 'network', code: 'ETIMEDOUT' } }], '0.fault.code: Invalid option: expected one of "ECONNRESET"|"ECONNREFUSED"|"EPIPE"'],
    [[{ fault: { kind: 'timeout' }, times: 0 }], '0.times: Too small: expected number to be >0'],
  ])('rejects %j at %s', (plan, expected) => {
    expect(firstIssue(plan)).toBe(expected);
  });

  it('rejects an unknown fault kind at its `kind`, listing the known ones', () => {
    expect(firstIssue([{ fault: { kind: 'explode' } }])).toMatch(/^0\.fault\.kind: Invalid discriminator value\. Expected 'timeout' \| 'latency'/);
  });
});

describe('FAULT_KINDS', () => {
  it('lists every kind of the union, in order', () => {
    expect(FAULT_KINDS).toEqual(['timeout', 'latency', 'network', 'rate_limit', 'quota_exceeded', 'unavailable', 'partial_write', 'duplicate', 'permission_denied', 'rejected', 'not_found', 'conflict', 'server_error', 'malformed']);
    expect(FAULT_KINDS.length).toBe(FaultSchema.options.length);
  });
});
