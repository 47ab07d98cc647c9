import { canonicalJson } from '../core/canonical.js';
import { eventsOf, failAll, pass, undecided, type EventOf, type HistoryEvent, type Verdict } from '../core/index.js';
import type { CheckResult } from './index.js';
import { list } from './format.js';

type Problem = { message: string; evidence: unknown };

/** One `tools/call` through `mcp-proxy`, read back from its history. */
interface Proxied {
  readonly call: string;
  readonly tool: string;
  readonly risk: EventOf<'tool_call'>['risk'];
  readonly input: string;
  readonly t: number;
  readonly seq: number;
  readonly requests: readonly string[];
  readonly deliveries: number;
  readonly faults: readonly number[];
  readonly outcome?: EventOf<'outcome'>;
}

function proxiedCalls(history: readonly HistoryEvent[]): Proxied[] {
  const deliveries = new Map<string, number>();
  const requests = new Map<string, Set<string>>();
  const faults = new Map<string, number[]>();
  const outcomes = new Map<string, EventOf<'outcome'>>();
  for (const e of history) {
    if (e.type === 'delivery' && e.call !== undefined) deliveries.set(e.call, (deliveries.get(e.call) ?? 0) + 1);
    if (e.type === 'attempt') requests.set(e.call, (requests.get(e.call) ?? new Set()).add(e.request));
    if (e.type === 'fault' && e.call !== undefined) faults.set(e.call, [...(faults.get(e.call) ?? []), e.rule]);
    if (e.type === 'outcome') outcomes.set(e.call, e);
  }
  return eventsOf(history, 'tool_call').map((c) => {
    const outcome = outcomes.get(c.call);
    return {
      call: c.call,
      tool: c.tool,
      risk: c.risk,
      input: canonicalJson(c.input),
      t: c.t,
      seq: c.seq,
      requests: [...(requests.get(c.call) ?? [])],
      deliveries: deliveries.get(c.call) ?? 0,
      faults: faults.get(c.call) ?? [],
      ...(outcome && { outcome }),
    };
  });
}

/** A delivery the server may have acted on: anything but a definite error answer. */
const mayHaveActed = (c: Proxied): boolean => c.deliveries > 0 && c.outcome?.result !== 'error';

/**
 * R18, R24, R25: a tool known as non-idempotent (its annotations, or the plan's `risks`) reaches
 * the server at most once with the same arguments, counting only deliveries it may have acted on.
 */
function duplicates(calls: readonly Proxied[]): Verdict {
  const groups = new Map<string, Proxied[]>();
  for (const c of calls) {
    if (c.risk !== 'write' || !mayHaveActed(c)) continue;
    const key = `${c.tool}\u0000${c.input}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const problems: Problem[] = [];
  for (const group of groups.values()) {
    const times = group.reduce((n, c) => n + c.deliveries, 0);
    if (times < 2) continue;
    const first = group[0]!;
    const copies = group.filter((c) => c.deliveries > 1);
    const why =
      copies.length > 0
        ? `a duplicate delivery (fault rule ${list(copies.flatMap((c) => c.faults.map(String)))}) made ` +
          `the server run ${list(copies.map((c) => c.call))} more than once`
        : `the client sent the same arguments again after ${first.call} (${first.outcome?.result ?? 'no outcome'}), ` +
          `with nothing to make the resend safe (R25)`;
    problems.push({
      message:
        `${first.tool} (not idempotent) reached the server ${times} times with the same arguments ` +
        `(calls ${list(group.map((c) => c.call))}; requests ${list(group.flatMap((c) => c.requests))}): ${why}`,
      evidence: {
        tool: first.tool,
        input: JSON.parse(first.input) as unknown,
        calls: group.map((c) => ({
          call: c.call,
          requests: c.requests,
          deliveries: c.deliveries,
          t: c.t,
          outcome: c.outcome?.result,
        })),
      },
    });
  }
  return failAll(problems);
}

/**
 * R18, R21: a call whose outcome is unknown (the answer was lost, or the client cancelled while
 * the server had it) is reconciled, by a read of the same server, before its arguments are sent
 * again. One left unreconciled is undecided: only the server's state can say.
 */
function unknownOutcomes(calls: readonly Proxied[]): Verdict {
  const problems: Problem[] = [];
  const open: string[] = [];
  for (const u of calls) {
    if (u.outcome?.result !== 'unknown' || u.risk === 'read') continue;
    const resend = calls.find((c) => c.seq > u.seq && c.tool === u.tool && c.input === u.input);
    const read = calls.find((c) => c.seq > u.seq && c.risk === 'read' && (resend === undefined || c.seq < resend.seq));
    if (resend && !read) {
      problems.push({
        message:
          `${u.tool} ${resend.call} (${list(resend.requests)}) resent the arguments of ${u.call}, ` +
          `whose outcome was unknown (${u.outcome.error?.message ?? 'no answer'}), without reading what became of it first (R21)`,
        evidence: {
          rule: 'R21',
          unknown: { call: u.call, requests: u.requests, t: u.outcome.t },
          resend: { call: resend.call, requests: resend.requests, t: resend.t },
        },
      });
    } else if (!read) open.push(`${u.call} (${u.tool})`);
  }
  if (problems.length > 0) return failAll(problems);
  return open.length === 0
    ? pass()
    : undecided(
        `${list(open)} ended with an unknown outcome the client never reconciled: the server may have acted (R18)`,
      );
}

/** R9: after a refusal with a wait hint, no call of the same tool arrives before it has elapsed. */
function retryAfter(calls: readonly Proxied[]): Verdict {
  const problems: Problem[] = [];
  for (const r of calls) {
    const ms = r.outcome?.error?.retryAfterMs;
    if (ms === undefined || r.outcome === undefined) continue;
    const until = r.outcome.t + ms;
    const early = calls.find((c) => c.seq > r.outcome!.seq && c.tool === r.tool && c.t < until);
    if (!early) continue;
    problems.push({
      message:
        `${r.tool} ${early.call} arrived at t=${early.t}ms, ${early.t - r.outcome.t}ms after ` +
        `${r.call} was refused (${r.outcome.error?.kind}) with Retry-After ${ms}ms (until t=${until}ms) (R9)`,
      evidence: {
        rule: 'R9',
        refused: { call: r.call, requests: r.requests, t: r.outcome.t, retryAfterMs: ms },
        early: { call: early.call, requests: early.requests, t: early.t },
      },
    });
  }
  return failAll(problems);
}

/** The names of the checks `mcp-proxy` runs, in report order. */
export const PROXY_CHECKS = ['duplicates', 'unknown-outcomes', 'retry-after'] as const;

/**
 * The verdicts on an `mcp-proxy` session, from its history alone: what crossed the proxy is all
 * it knows of the server's state, so each check reads deliveries, outcomes and times.
 */
export function judgeProxiedCalls(history: readonly HistoryEvent[]): readonly CheckResult[] {
  const calls = proxiedCalls(history);
  return [
    { name: 'duplicates', verdict: duplicates(calls) },
    { name: 'unknown-outcomes', verdict: unknownOutcomes(calls) },
    { name: 'retry-after', verdict: retryAfter(calls) },
  ];
}
