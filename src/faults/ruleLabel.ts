import type { FaultMatch, FaultRule } from './plan.js';

const many = <T>(v: T | readonly T[]): string => (Array.isArray(v) ? (v as readonly T[]).join(',') : String(v));

function matchText(m: FaultMatch): string {
  const parts = [
    m.tool === undefined ? 'any tool' : many(m.tool),
    ...(m.purpose === 'status' ? ['status queries'] : m.purpose === 'any' ? ['calls and status queries'] : []),
    ...(m.call === undefined ? [] : [`call ${many(m.call)}`]),
    ...(m.attempt === undefined ? [] : [`attempt ${many(m.attempt)}`]),
    ...(m.from === undefined ? [] : [`from ${m.from}ms`]),
    ...(m.to === undefined ? [] : [`to ${m.to}ms`]),
    ...(m.probability === undefined ? [] : [`p=${m.probability}`]),
  ];
  return parts.join(' ');
}

/**
 * A rule as people name it in a report: what it matches, then its fault.
 *
 * @example ruleLabel({ match: { tool: 'create_order', call: 7 }, fault: { kind: 'partial_write', lostAs: 'timeout' } })
 * // 'create_order call 7, partial_write'
 */
export const ruleLabel = (rule: FaultRule): string =>
  `${matchText(rule.match)}, ${rule.fault.kind}${rule.times === undefined ? '' : `, times ${rule.times}`}`;
