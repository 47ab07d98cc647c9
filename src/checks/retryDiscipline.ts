import { failAll, type ErrorKind, type EventOf, type Verdict } from '../core/index.js';
import type { Checker } from './checker.js';
import { list } from './format.js';
import { modelRetryAfterProblems } from './modelResends.js';
import { PERMANENT_KINDS } from './permanentKinds.js';
import { resentAfterUnknown } from './resentAfterUnknown.js';
import { STATUS_TOOL, TrialIndex } from './trialIndex.js';
import { wireDisciplineProblems } from './wireDiscipline.js';

export { PERMANENT_KINDS };

type Problem = { message: string; evidence: unknown };
type AttemptEvent = EventOf<'attempt'>;

/** An error after which the same input must not be sent again. */
interface StopError {
  readonly seq: number;
  readonly t: number;
  readonly call: string;
  readonly attempt?: number;
  readonly tool: string;
  readonly input: string | undefined;
  readonly kind: ErrorKind;
}

const at = (a: AttemptEvent): string => `${a.call} attempt ${a.attempt} (${a.request}) at t=${a.t}ms`;

function stopErrors(index: TrialIndex): StopError[] {
  const stops: StopError[] = [];
  for (const e of index.events) {
    if (e.type !== 'attempt_end' && e.type !== 'outcome') continue;
    const kind = e.error?.kind;
    if (kind === undefined || (kind !== 'quota_exceeded' && !PERMANENT_KINDS.includes(kind))) continue;
    const tool = e.type === 'outcome' ? e.tool : (index.attemptFor(e.request)?.tool ?? index.call(e.call)?.tool);
    // A status query that fails says nothing about resending the call itself.
    if (e.type === 'attempt_end' && e.purpose === 'status') continue;
    // Polling a status again is how an unknown outcome gets settled (R21), not a retry.
    if (tool === undefined || tool === STATUS_TOOL) continue;
    stops.push({
      seq: e.seq,
      t: e.t,
      call: e.call,
      ...(e.type === 'attempt_end' ? { attempt: e.attempt } : {}),
      tool,
      input: index.inputText(e.call),
      kind,
    });
  }
  return stops;
}

/**
 * A new call that reads again what answered a permanent error asks a new question, not a retry
 * (R7), once the state may have changed: after a write in between, or, for a `not_found`, once
 * time has passed (polling until a resource appears). A retry inside the same call stays one.
 */
function askedAnew(index: TrialIndex, attempts: readonly AttemptEvent[], stop: StopError, a: AttemptEvent): boolean {
  if (stop.call === a.call || stop.kind === 'quota_exceeded' || index.call(stop.call)?.risk !== 'read') return false;
  if (stop.kind === 'not_found' && a.t > stop.t) return true;
  return attempts.some((w) => {
    const risk = index.call(w.call)?.risk;
    return w.seq > stop.seq && w.seq < a.seq && risk !== undefined && risk !== 'read';
  });
}

/** The agent's own sends, status queries apart; asked for only once a stop or a wait hint needs them. */
type CallAttempts = () => readonly AttemptEvent[];

/** R5, R7: nothing is resent unchanged after an exhausted quota or a permanent error. */
function resentAfterStop(index: TrialIndex, callAttempts: CallAttempts): Problem[] {
  // The earliest stop per call and per (agent, tool, input): the first one before an attempt is the one to name.
  const byCall = new Map<string, StopError>();
  const byInput = new Map<string, StopError>();
  for (const s of stopErrors(index)) {
    if (!byCall.has(s.call)) byCall.set(s.call, s);
    const key = s.input === undefined ? undefined : `${callerOf(index, s.call) ?? ''}\u0000${s.tool}\u0000${s.input}`;
    if (key !== undefined && !byInput.has(key)) byInput.set(key, s);
  }
  const problems: Problem[] = [];
  // No stop, nothing resent after one: most trials end here, before any input is printed canonically.
  if (byCall.size === 0) return problems;
  const attempts = callAttempts();
  for (const a of attempts) {
    const input = index.inputText(a.call);
    const candidates = [
      byCall.get(a.call),
      input === undefined ? undefined : byInput.get(`${callerOf(index, a.call) ?? ''}\u0000${a.tool}\u0000${input}`),
    ];
    const stop = candidates
      .filter((s): s is StopError => s !== undefined && s.seq < a.seq && !askedAnew(index, attempts, s, a))
      .sort((x, y) => x.seq - y.seq)[0];
    if (!stop) continue;
    const quota = stop.kind === 'quota_exceeded';
    const origin = stop.attempt === undefined ? stop.call : `${stop.call} attempt ${stop.attempt}`;
    const why = quota ? 'waiting does not help an exhausted quota (R5)' : 'permanent errors are never retried (R7)';
    problems.push({
      message: `${a.tool} ${at(a)} resent the same input after the ${stop.kind} error of ${origin} at t=${stop.t}ms: ${why}`,
      evidence: {
        rule: quota ? 'R5' : 'R7',
        attempt: { call: a.call, attempt: a.attempt, request: a.request, tool: a.tool, seq: a.seq, t: a.t },
        after: {
          call: stop.call,
          ...(stop.attempt !== undefined ? { attempt: stop.attempt } : {}),
          kind: stop.kind,
          seq: stop.seq,
          t: stop.t,
        },
      },
    });
  }
  return problems;
}

/** R7, R23: a retried `write` carries one idempotency key on every attempt. */
function writeKeys(index: TrialIndex): Problem[] {
  const problems: Problem[] = [];
  for (const call of index.calls) {
    if (call.risk !== 'write') continue;
    const attempts = index.callAttemptsOf(call.call);
    if (attempts.length < 2) continue;
    const keys = attempts.map((a) => a.idempotencyKey);
    const distinct = [...new Set(keys.filter((k): k is string => k !== undefined))];
    const missing = attempts.filter((a) => a.idempotencyKey === undefined);
    const unhonoured = !call.honoursKeys;
    if (missing.length === 0 && distinct.length === 1 && !unhonoured) continue;
    const requests = list(attempts.map((a) => a.request));
    const rule = missing.length > 0 || distinct.length === 1 ? 'R7' : 'R23';
    const message =
      missing.length > 0
        ? `write ${call.call} (${call.tool}) was retried ${attempts.length - 1} times with ` +
          `${missing.length} attempts carrying no idempotency key (requests ${requests}): a side-effecting ` +
          `call is retried only with a key (R7)`
        : distinct.length > 1
          ? `write ${call.call} (${call.tool}) used ${distinct.length} different idempotency keys ` +
            `(${list(distinct)}) across its attempts (requests ${requests}): one operation keeps one key (R23)`
          : `write ${call.call} (${call.tool}) was retried ${attempts.length - 1} times against a ` +
            `service that does not honour idempotency keys (requests ${requests}): a key the server ignores protects nothing (R7)`;
    problems.push({
      message,
      evidence: {
        rule,
        call: call.call,
        tool: call.tool,
        attempts: attempts.map((a) => ({
          attempt: a.attempt,
          request: a.request,
          t: a.t,
          ...(a.idempotencyKey !== undefined ? { idempotencyKey: a.idempotencyKey } : {}),
        })),
      },
    });
  }
  return problems;
}

/** Which agent of a crowd made `call` (undefined with one agent). */
const callerOf = (index: TrialIndex, call: string): string | undefined => index.call(call)?.caller;

/** R9: after a wait hint, no attempt reaches the same tool before it has elapsed. */
function retryAfter(index: TrialIndex, callAttempts: CallAttempts): Problem[] {
  // A loop, not flatMap: most attempts end with no hint, and each cost an empty array.
  const hints: { seq: number; t: number; until: number; ms: number; tool: string; call: string; attempt: number }[] =
    [];
  for (const e of index.eventsOf('attempt_end')) {
    const ms = e.error?.retryAfterMs;
    // The tool only for a hint: most attempts end with none, and the lookup builds a table.
    if (ms === undefined) continue;
    const tool = index.attemptFor(e.request)?.tool ?? index.call(e.call)?.tool;
    if (tool !== undefined)
      hints.push({ seq: e.seq, t: e.t, until: e.t + ms, ms, tool, call: e.call, attempt: e.attempt });
  }
  // No hint, nothing to break: most trials, whose attempts need no key each.
  if (hints.length === 0) return [];
  const attempts = callAttempts();
  // A wait hint binds the agent it was sent to; another agent of a crowd never saw it.
  const byAgentTool = new Map<string, typeof hints>();
  for (const h of hints) {
    const key = `${callerOf(index, h.call) ?? ''}\u0000${h.tool}`;
    // Pushed, not copied: a crowd under rate limits gets thousands of hints per agent and tool.
    const same = byAgentTool.get(key);
    if (same) same.push(h);
    else byAgentTool.set(key, [h]);
  }
  const problems: Problem[] = [];
  for (const a of attempts) {
    const hint = byAgentTool
      .get(`${callerOf(index, a.call) ?? ''}\u0000${a.tool}`)
      ?.find((h) => h.seq < a.seq && a.t < h.until);
    if (!hint) continue;
    problems.push({
      message:
        `${a.tool} ${at(a)} was sent before the ${hint.ms}ms Retry-After of ${hint.call} attempt ` +
        `${hint.attempt} (t=${hint.t}ms) elapsed at t=${hint.until}ms (R9)`,
      evidence: {
        rule: 'R9',
        attempt: { call: a.call, attempt: a.attempt, request: a.request, tool: a.tool, seq: a.seq, t: a.t },
        retryAfter: {
          call: hint.call,
          attempt: hint.attempt,
          seq: hint.seq,
          t: hint.t,
          retryAfterMs: hint.ms,
          until: hint.until,
        },
      },
    });
  }
  return problems;
}

/**
 * R5, R7, R9, R21, R23, R27: how a runtime (or agent) retries, judged attempt by attempt: the
 * execution layer's `attempt` events, and the HTTP traffic of any other caller (`WireView`).
 */
export const retryDiscipline: Checker = {
  name: 'retry-discipline',
  rules: ['R5', 'R7', 'R9', 'R21', 'R23', 'R27'],
  description:
    'No resend after quota or permanent errors, one idempotency key per retried write, Retry-After ' +
    'honoured (on tool and model calls alike), and a status query before resending after an unknown outcome.',
  check(record): Verdict {
    const index = TrialIndex.of(record);
    let attempts: readonly AttemptEvent[] | undefined;
    const callAttempts = (): readonly AttemptEvent[] =>
      (attempts ??= index.eventsOf('attempt').filter((a) => a.purpose === 'call'));
    const view = index.wire;
    const wire = wireDisciplineProblems(view);
    return failAll([
      ...resentAfterStop(index, callAttempts),
      ...writeKeys(index),
      ...retryAfter(index, callAttempts),
      ...resentAfterUnknown(index),
      ...wire,
      ...modelRetryAfterProblems(view),
    ]);
  },
};
