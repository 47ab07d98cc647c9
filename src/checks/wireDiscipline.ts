import type { ErrorKind } from '../core/index.js';
import { list } from './format.js';
import { PERMANENT_KINDS } from './permanentKinds.js';
import {
  describeWire,
  lostAnswer,
  originOf,
  wireEvidence,
  type WireAttempt,
  type WireCall,
  type WireView,
} from './WireView.js';

type Problem = { message: string; evidence: unknown };

/** One send of a tool call, with the call it belongs to. */
interface Send {
  readonly call: WireCall;
  readonly a: WireAttempt;
}

const sameRequest = (x: Send, y: Send): boolean =>
  x.call.tool === y.call.tool && x.a.method === y.a.method && x.a.url === y.a.url && x.a.bodyDigest === y.a.bodyDigest;

const isStop = (kind: ErrorKind | undefined): kind is ErrorKind =>
  kind !== undefined && (kind === 'quota_exceeded' || PERMANENT_KINDS.includes(kind));

/** Every call-purpose send of the trial's tool traffic, in arrival order. */
function sendsOf(view: WireView): Send[] {
  return view.toolCalls.flatMap((call) => call.attempts.map((a) => ({ call, a }))).sort((x, y) => x.a.seq - y.a.seq);
}

/**
 * A read's permanent answer described the state when it was asked: asking again once the state
 * may have changed is a new question, not a retry (R7). So after a write to the same service in
 * between, or, for a `not_found`, once time has passed (polling until a resource appears). A
 * resend the client itself numbered as a retry (an SDK's retry count, its own call header) stays one.
 */
function askedAnew(sends: readonly Send[], stop: Send, s: Send): boolean {
  const answer = stop.a.answer!;
  if (
    stop.call.risk !== 'read' ||
    answer.errorKind === 'quota_exceeded' ||
    s.a.groupedBy === 'sdk' ||
    s.a.groupedBy === 'header'
  )
    return false;
  if (answer.errorKind === 'not_found' && s.a.t > answer.t) return true;
  const service = originOf(stop.a.url);
  return sends.some(
    (w) => w.call.risk !== 'read' && w.a.seq > answer.seq && w.a.seq < s.a.seq && originOf(w.a.url) === service,
  );
}

/** R5, R7: the same request is not sent again after an exhausted quota or a permanent error. */
function resentAfterStop(sends: readonly Send[]): Problem[] {
  const problems: Problem[] = [];
  for (const s of sends) {
    const stop = sends.find(
      (x) =>
        x.a.answer !== undefined &&
        x.a.answer.seq < s.a.seq &&
        isStop(x.a.answer.errorKind) &&
        (x.call === s.call || sameRequest(x, s)) &&
        !askedAnew(sends, x, s),
    );
    if (!stop) continue;
    const kind = stop.a.answer!.errorKind!;
    const quota = kind === 'quota_exceeded';
    const why = quota ? 'waiting does not help an exhausted quota (R5)' : 'permanent errors are never retried (R7)';
    problems.push({
      message:
        `${s.call.tool} ${describeWire(s.call, s.a)} resent the request after the ${kind} answer ` +
        `(${stop.a.answer!.status ?? 'no status'}) to ${describeWire(stop.call, stop.a)}: ${why}`,
      evidence: {
        rule: quota ? 'R5' : 'R7',
        source: 'wire',
        call: s.call.call,
        tool: s.call.tool,
        resend: wireEvidence(s.a),
        after: { call: stop.call.call, ...wireEvidence(stop.a) },
      },
    });
  }
  return problems;
}

/** R7, R23: a resent write carries one key, and one its service honours. */
function writeKeys(view: WireView): Problem[] {
  const problems: Problem[] = [];
  for (const call of view.toolCalls) {
    if (call.risk !== 'write' || call.attempts.length < 2) continue;
    const keys = [...new Set(call.attempts.flatMap((a) => (a.idempotencyKey === undefined ? [] : [a.idempotencyKey])))];
    const missing = call.attempts.filter((a) => a.idempotencyKey === undefined);
    const unhonoured = call.honoursKeys === false;
    if (missing.length === 0 && keys.length === 1 && !unhonoured) continue;
    const requests = list(call.attempts.map((a) => `${a.request} at t=${a.t}ms`));
    const what =
      `write ${call.call} (${call.tool}, ${call.attempts[0]!.method} ${call.attempts[0]!.url}) ` +
      `was sent ${call.attempts.length} times`;
    const rule = missing.length > 0 || keys.length === 1 ? 'R7' : 'R23';
    const message =
      missing.length > 0
        ? `${what}, ${missing.length} of them without an idempotency key (requests ${requests}): a ` +
          `side-effecting request is resent only with a key (R7)`
        : keys.length > 1
          ? `${what} with ${keys.length} different idempotency keys (${list(keys)}) for the same ` +
            `request (requests ${requests}): one operation keeps one key across retries (R23)`
          : `${what} to a service that does not honour idempotency keys (requests ${requests}): a key ` +
            `the server ignores protects nothing (R7)`;
    problems.push({
      message,
      evidence: { rule, source: 'wire', call: call.call, tool: call.tool, attempts: call.attempts.map(wireEvidence) },
    });
  }
  return problems;
}

/** R9: after a `Retry-After`, nothing reaches the same operation before it has elapsed. */
function retryAfter(sends: readonly Send[]): Problem[] {
  const problems: Problem[] = [];
  for (const s of sends) {
    const hint = sends.find((x) => {
      const ans = x.a.answer;
      return (
        ans?.retryAfterMs !== undefined &&
        ans.seq < s.a.seq &&
        x.call.tool === s.call.tool &&
        s.a.t < ans.t + ans.retryAfterMs
      );
    });
    if (!hint) continue;
    const ans = hint.a.answer!;
    const until = ans.t + ans.retryAfterMs!;
    problems.push({
      message:
        `${s.call.tool} ${describeWire(s.call, s.a)} was sent ${s.a.t - ans.t}ms after the ` +
        `${ans.status ?? 'error'} answer to ${hint.a.request} at t=${ans.t}ms said Retry-After: ` +
        `${ans.retryAfter ?? `${ans.retryAfterMs}ms`} (${ans.retryAfterMs}ms, until t=${until}ms) (R9)`,
      evidence: {
        rule: 'R9',
        source: 'wire',
        resend: wireEvidence(s.a),
        retryAfter: { call: hint.call.call, ...wireEvidence(hint.a), retryAfterMs: ans.retryAfterMs, until },
      },
    });
  }
  return problems;
}

/** R21: after a write's answer was lost, its status is queried before the same request is sent again. */
function resentAfterLost(view: WireView, sends: readonly Send[]): Problem[] {
  const problems: Problem[] = [];
  for (const lost of sends) {
    if (lost.call.risk !== 'write' || !lostAnswer(lost.a)) continue;
    const after = lost.a.answer!.seq;
    const resend = sends.find((s) => s.a.seq > after && (s.call === lost.call || sameRequest(s, lost)));
    if (!resend) continue;
    // The same key to a service that replays it is the safe resend R22 describes.
    const replay =
      lost.a.idempotencyKey !== undefined &&
      resend.a.idempotencyKey === lost.a.idempotencyKey &&
      resend.call.honoursKeys !== false;
    if (replay) continue;
    if (view.queried(lost.call, lost.a, after, resend.a.seq)) continue;
    problems.push({
      message:
        `${resend.call.tool} ${describeWire(resend.call, resend.a)} resubmitted the write whose ` +
        `answer to ${lost.a.request} was lost at t=${lost.a.answer!.t}ms (${lost.a.answer!.message ?? lost.a.answer!.result}) ` +
        `without querying its status first${resend.a.idempotencyKey === undefined ? ' and without an idempotency key' : ''} (R21)`,
      evidence: {
        rule: 'R21',
        source: 'wire',
        lost: { call: lost.call.call, ...wireEvidence(lost.a) },
        resend: { call: resend.call.call, ...wireEvidence(resend.a) },
      },
    });
  }
  return problems;
}

/**
 * R5, R7, R9, R21, R23 judged from the tool traffic alone, for whoever made the calls.
 * The execution layer's own requests are left to its `attempt` events (see `WireView`).
 */
export function wireDisciplineProblems(view: WireView): Problem[] {
  // No traffic of its own (every trial over the in-process wire): nothing to list, nothing to judge.
  if (view.calls.length === 0) return [];
  const sends = sendsOf(view);
  return [...resentAfterStop(sends), ...writeKeys(view), ...retryAfter(sends), ...resentAfterLost(view, sends)];
}
