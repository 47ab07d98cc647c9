import type { z } from 'zod';
import type { FaultRuleSchema } from '../../faults/plan.js';
import type { TracedAttempt, TracedCall } from './tracedRun.js';

/** An answer that took at least this long (real ms) is kept as a `latency` fault: shorter ones are the network's usual. */
export const LATENCY_MS = 1000;

export type Risk = 'read' | 'idempotent-write' | 'write';
/** A rule as the scenario file holds it. */
export type FaultRule = z.input<typeof FaultRuleSchema>;
type Fault = FaultRule['fault'];

const READ_NAME = /^(get|list|search|find|read|fetch|query|lookup|describe|check|show|view|count|status)([_A-Z-]|$)/;

/**
 * A tool's risk (R4): faultline's own `faultline.risk` when the trace is faultline's, else read from the
 * name (`get_…`, `list_…`, `search…` are reads); anything else is a write, the safe guess: a timeout on
 * it may have committed (R18).
 */
export function riskOf(calls: readonly TracedCall[]): Risk {
  const said = calls.map((c) => c.risk).find((r) => r === 'read' || r === 'idempotent-write' || r === 'write');
  if (said !== undefined) return said;
  return READ_NAME.test(calls[0]?.tool ?? '') ? 'read' : 'write';
}

const TIMEOUT = /time ?out|timed out|etimedout|aborterror|deadline/i;
const NETWORK = /\b(ECONNRESET|ECONNREFUSED|EPIPE)\b/;

/** The fault one failed (or slow) try met, or a note saying why it has none. */
export function faultOf(a: TracedAttempt, risk: Risk): { fault: Fault } | { note: string } | undefined {
  const type = a.errorType ?? '';
  if (!a.failed) return a.ms >= LATENCY_MS ? { fault: { kind: 'latency', ms: a.ms } } : undefined;
  if (a.status === undefined && TIMEOUT.test(type))
    // R18: the caller stopped waiting; a write may have committed. Taking it as committed is what makes a resend a duplicate.
    return { fault: risk === 'read' ? { kind: 'timeout' } : { kind: 'partial_write', lostAs: 'timeout' } };
  const net = NETWORK.exec(type);
  if (a.status === undefined && net) return { fault: { kind: 'network', code: net[1] as 'ECONNRESET' } };
  switch (a.status) {
    case 429:
      if (/insufficient_quota|quota/i.test(type)) return { fault: { kind: 'quota_exceeded' } };
      return {
        fault: {
          kind: 'rate_limit',
          ...(a.retryAfterMs !== undefined && { retryAfter: Math.max(0, Math.ceil(a.retryAfterMs / 1000)) }),
        },
      };
    case 500:
    case 502:
    case 503:
    case 504:
    case 529:
      return { fault: { kind: 'unavailable', status: a.status } };
    case 401:
    case 403:
      return { fault: { kind: 'permission_denied', status: a.status } };
    case 404:
      return { fault: { kind: 'not_found' } };
    case 409:
      return { fault: { kind: 'conflict' } };
    case 400:
    case 422:
      return { fault: { kind: 'rejected', message: type === '' ? `status ${a.status}` : type } };
    default:
      return {
        note:
          a.status === undefined
            ? `an error of type ${JSON.stringify(type)} with no HTTP status`
            : `HTTP status ${a.status}${type === '' ? '' : ` (${type})`}`,
      };
  }
}

/** The fault plan: one rule per try that met a fault, matched by the tool, its call's number and the try's. */
export function tracedFaults(
  calls: readonly TracedCall[],
  risks: ReadonlyMap<string, Risk>,
  notes: string[],
): FaultRule[] {
  const counts = new Map<string, number>();
  const rules: FaultRule[] = [];
  for (const call of calls) {
    const n = (counts.get(call.tool) ?? 0) + 1;
    counts.set(call.tool, n);
    call.attempts.forEach((a, i) => {
      const got = faultOf(a, risks.get(call.tool) ?? 'write');
      if (got === undefined) return;
      if ('note' in got) {
        notes.push(
          `${call.tool} call ${n}, try ${i + 1} (${call.where}): ${got.note} is no fault faultline injects; not mapped`,
        );
        return;
      }
      // A later try happens only when the configuration retries as the traced agent did: the rule may rightly stay silent.
      rules.push({
        match: { tool: call.tool, call: n, attempt: i + 1 },
        fault: got.fault,
        ...(i > 0 && { expect: 'may-not-fire' as const }),
      });
    });
  }
  return rules;
}
