import type { EventOf } from '../core/index.js';
import { STATUS_TOOL, type TrialIndex } from './trialIndex.js';
import { firstAfter } from './seqSearch.js';
import { push } from './push.js';

type Problem = { message: string; evidence: unknown };
type AttemptEvent = EventOf<'attempt'>;
type ToolCallEvent = EventOf<'tool_call'>;

const at = (a: AttemptEvent): string => `${a.call} attempt ${a.attempt} (${a.request}) at t=${a.t}ms`;

/**
 * R21, R27: after an unknown outcome, the status is queried before the same input is sent again.
 *
 * Each unknown outcome looks up its resend among the calls of the same agent, tool and input,
 * and the status queries and reconciles between by seq in lists built once: it used to filter
 * every call and scan the whole history per unknown outcome, which a faulted crowd (hundreds of
 * unknowns, tens of thousands of events) paid for many times over.
 */
export function resentAfterUnknown(index: TrialIndex): Problem[] {
  const problems: Problem[] = [];
  const unknowns = index.eventsOf('outcome').filter((o) => o.result === 'unknown');
  if (unknowns.length === 0) return problems;
  const tools = new Set(unknowns.map((o) => o.tool));
  /** Per agent, tool and input: its calls, in the order they were made. */
  const sameCalls = new Map<string, ToolCallEvent[]>();
  for (const c of index.calls) {
    if (!tools.has(c.tool)) continue;
    const input = index.inputText(c.call);
    if (input !== undefined) push(sameCalls, sameKey(c.caller, c.tool, input), c);
  }
  const statusByTool = new Map<string, number[]>();
  const statusByCall = new Map<string, number[]>();
  for (const a of index.eventsOf('attempt')) {
    if (a.purpose !== 'status') continue;
    push(statusByTool, a.tool, a.seq);
    push(statusByCall, a.call, a.seq);
  }
  const reconcileByCall = new Map<string, number[]>();
  const reconcileByOp = new Map<string, number[]>();
  for (const e of index.eventsOf('reconcile')) {
    push(reconcileByCall, e.call, e.seq);
    push(reconcileByOp, e.op, e.seq);
  }
  const statusCalls = index.eventsOf('tool_call').flatMap((e) => (e.tool === STATUS_TOOL ? [e.seq] : []));

  for (const o of unknowns) {
    const input = index.inputText(o.call);
    if (input === undefined) continue;
    const resend = firstResend(index, sameCalls.get(sameKey(index.call(o.call)?.caller, o.tool, input)), o);
    if (!resend) continue;
    // The call's own reconciliation counts: its unknown outcome already is the status query's answer.
    const reconciled = index.attemptsOf(o.call).some((a) => a.purpose === 'status') || reconcileByCall.has(o.call);
    const between = (seqs: readonly number[] | undefined): boolean =>
      seqs !== undefined && anyBetween(seqs, o.seq, resend.seq);
    const queried =
      between(statusByTool.get(o.tool)) ||
      between(statusByCall.get(o.call)) ||
      between(reconcileByCall.get(o.call)) ||
      (o.op !== undefined && between(reconcileByOp.get(o.op))) ||
      between(statusCalls);
    if (reconciled || queried) continue;
    problems.push(resentProblem(o, resend, index.callAttemptsOf(o.call)));
  }
  return problems;
}

/** The problem of `o`'s input resent by `resend` with no status query between; `original`: `o`'s own attempts. */
export function resentProblem(o: EventOf<'outcome'>, resend: AttemptEvent, original: readonly AttemptEvent[]): Problem {
  return {
    message:
      `${o.tool} ${at(resend)} resent the input of ${o.call} after its unknown ` +
      `outcome${o.op !== undefined ? ` (${o.op})` : ''} at t=${o.t}ms without querying its status first (R21, R27)`,
    evidence: {
      rule: 'R21',
      unknown: {
        call: o.call,
        tool: o.tool,
        seq: o.seq,
        t: o.t,
        ...(o.op !== undefined ? { op: o.op } : {}),
        requests: original.map((a) => a.request),
      },
      resend: {
        call: resend.call,
        attempt: resend.attempt,
        request: resend.request,
        seq: resend.seq,
        t: resend.t,
        ...(resend.idempotencyKey !== undefined ? { idempotencyKey: resend.idempotencyKey } : {}),
      },
      idempotencyKeys: [
        ...new Set([...original, resend].flatMap((a) => (a.idempotencyKey === undefined ? [] : [a.idempotencyKey]))),
      ],
    },
  };
}

/** The first attempt of the first later call (another call, same agent, tool and input) that sent anything. */
function firstResend(
  index: TrialIndex,
  calls: readonly ToolCallEvent[] | undefined,
  o: EventOf<'outcome'>,
): AttemptEvent | undefined {
  if (calls === undefined) return undefined;
  // A linear walk: one agent's calls of one tool and input are few.
  for (const c of calls) {
    if (c.seq <= o.seq || c.call === o.call) continue;
    const first = index.callAttemptsOf(c.call)[0];
    if (first !== undefined) return first;
  }
  return undefined;
}

/** Whether some seq of the ascending `seqs` lies strictly between `after` and `before`. */
function anyBetween(seqs: readonly number[], after: number, before: number): boolean {
  const i = firstAfter(seqs, after);
  return i < seqs.length && seqs[i]! < before;
}

// An agent of a crowd is named; the one agent of a plain trial is not, and no name is empty.
const sameKey = (caller: string | undefined, tool: string, input: string): string =>
  `${caller === undefined ? '-' : `+${caller}`}\u0000${tool}\u0000${input}`;
