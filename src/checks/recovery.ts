import { failAll, pass, type HistoryEvent, type Verdict } from '../core/index.js';
import type { Checker } from './checker.js';
import { goalState } from './goalState.js';
import { unfinishedRestart } from './unfinishedRestart.js';
import type { Expectations, TrialRecord } from './record.js';

/** A wait begun under the faults that outlived them: how long after the heal an agent's next request (or its end) came. */
export interface StaleWait {
  /** The agent of a crowd (`agent-3`); absent with one agent. */
  readonly caller?: string;
  /** Virtual ms from the heal to `until`. */
  readonly waitMs: number;
  /** When the wait ended: its next request to a service, its end, or (neither) the trial's last event. */
  readonly until: number;
  readonly ended: 'request' | 'agent_end' | 'trial_end';
  /** What it was waiting on, as the history last said before the heal: a retry wait, an agent wait. */
  readonly on?: { readonly seq: number; readonly t: number; readonly what: string };
}

/** What one trial did after its heal (see the `recovery` checker). */
export interface RecoveryMeasure {
  readonly healAtMs: number;
  /** The trial reached the heal (it has a `heal` event); otherwise it ended before the faults did. */
  readonly healed: boolean;
  /** `goal-state` holds: the final state, the effect counts and the agents' outcomes. */
  readonly goalReached: boolean;
  /** When the goal was reached: the agents' last end (null when it was not reached). */
  readonly reachedAtMs: number | null;
  /** Virtual ms from the heal to the goal (0 when reached before the heal); null when never reached. */
  readonly timeToRecoverMs: number | null;
  /** Logical tool calls started at or after the heal, status queries excluded. */
  readonly callsAfter: readonly { readonly call: string; readonly seq: number; readonly t: number }[];
  /** Per agent running at the heal, its wait from the heal to its next request or end, longest first. */
  readonly staleWaits: readonly StaleWait[];
}

const STATUS_TOOL = 'query_operation_status';

const waitText = (e: HistoryEvent): string | undefined => {
  if (e.type === 'retry_wait')
    return `${e.call} ${e.reason === 'retry_after' ? 'Retry-After' : 'backoff'} wait of ${e.ms}ms`;
  if (e.type === 'agent_wait') return `agent wait of ${e.ms}ms`;
  if (e.type === 'model_turn' && e.action === 'wait')
    return `model's wait${e.waitMs === undefined ? '' : ` of ${e.waitMs}ms`}`;
  return undefined;
};

/**
 * What a trial did once its faults healed, or undefined when the scenario expects no recovery.
 * The goal is reached when `goal-state` holds, at the agents' last end; every figure is read
 * from the history alone, so it judges any agent and any runtime.
 */
export function measureRecovery(record: TrialRecord, expect: Expectations): RecoveryMeasure | undefined {
  if (!expect.recovery || !expect.heal) return undefined;
  const healAtMs = expect.heal.atMs;
  const history = record.history;
  const healed = history.some((e) => e.type === 'heal');
  const goalReached = goalState.check(record, expect).valid === true;
  const ends = history.filter((e) => e.type === 'agent_end');
  const reachedAtMs = goalReached ? (ends.at(-1)?.t ?? history.at(-1)?.t ?? 0) : null;
  const timeToRecoverMs = reachedAtMs === null ? null : Math.max(0, reachedAtMs - healAtMs);

  const callerOf = new Map<string, string>();
  const callsAfter: { call: string; seq: number; t: number }[] = [];
  for (const e of history) {
    if (e.type !== 'tool_call') continue;
    callerOf.set(e.call, e.caller ?? '');
    if (e.tool !== STATUS_TOOL && e.t >= healAtMs) callsAfter.push({ call: e.call, seq: e.seq, t: e.t });
  }
  // Calls seen only on the wire (an agent making its own HTTP calls): each first request of a tool call.
  const wireCalls = new Set<string>();
  for (const e of history) {
    if (e.type !== 'http_request' || e.kind !== 'tool' || (e.clientCall !== undefined && callerOf.has(e.clientCall)))
      continue;
    if (wireCalls.has(e.call)) continue;
    wireCalls.add(e.call);
    if (e.purpose === 'call' && e.t >= healAtMs) callsAfter.push({ call: e.call, seq: e.seq, t: e.t });
  }
  return {
    healAtMs,
    healed,
    goalReached,
    reachedAtMs,
    timeToRecoverMs,
    callsAfter,
    staleWaits: healed ? staleWaits(history, healAtMs, callerOf) : [],
  };
}

/** Each agent running at the heal: the time from the heal to its next request to a service, or its end. */
function staleWaits(
  history: readonly HistoryEvent[],
  healAtMs: number,
  callerOf: ReadonlyMap<string, string>,
): StaleWait[] {
  const starts = history.filter((e) => e.type === 'agent_start');
  const running = new Set(starts.length === 0 ? [''] : starts.filter((e) => e.startMs < healAtMs).map((e) => e.caller));
  const lastWait = new Map<string, { seq: number; t: number; what: string }>();
  const found = new Map<string, { until: number; ended: StaleWait['ended'] }>();
  const callerOfEvent = (e: HistoryEvent): string =>
    e.caller ?? ('call' in e && typeof e.call === 'string' ? (callerOf.get(e.call) ?? '') : '');
  for (const e of history) {
    const who = callerOfEvent(e);
    if (e.t < healAtMs) {
      if (e.type === 'agent_end') running.delete(who);
      const what = waitText(e);
      if (what !== undefined) lastWait.set(who, { seq: e.seq, t: e.t, what });
      continue;
    }
    if (!running.has(who) || found.has(who)) continue;
    const request = e.type === 'attempt' || (e.type === 'http_request' && e.kind === 'tool');
    if (request) found.set(who, { until: e.t, ended: 'request' });
    else if (e.type === 'agent_end') found.set(who, { until: e.t, ended: 'agent_end' });
  }
  const last = history.at(-1)?.t ?? healAtMs;
  return [...running]
    .map((who): StaleWait => {
      const { until, ended } = found.get(who) ?? { until: last, ended: 'trial_end' as const };
      const on = lastWait.get(who);
      return {
        ...(who === '' ? {} : { caller: who }),
        waitMs: Math.max(0, until - healAtMs),
        until,
        ended,
        ...(on && { on }),
      };
    })
    .sort((a, b) => b.waitMs - a.waitMs);
}

const who = (w: StaleWait): string => w.caller ?? 'the agent';

function staleText(w: StaleWait, healAtMs: number, max: number): string {
  const next =
    w.ended === 'request'
      ? `its next request came at t=${w.until}ms`
      : w.ended === 'agent_end'
        ? `it ended at t=${w.until}ms without another request`
        : `it sent nothing more before the trial ended at t=${w.until}ms`;
  const on = w.on ? `, waiting on a ${w.on.what} from t=${w.on.t}ms` : '';
  return (
    `${who(w)} was still waiting ${w.waitMs}ms after the heal at t=${healAtMs}ms${on}: ${next}; ` +
    `expected at most ${max}ms (a wait begun under the faults outlived them)`
  );
}

/**
 * Liveness after the faults: once they heal (`heal.atMs`), the goal is reached within
 * `recovery.withinMs`, with no more than `recovery.maxCallsAfter` new tool calls, and no agent
 * still waiting out a backoff, a Retry-After or an open circuit breaker from before the heal for
 * longer than `recovery.maxStaleWaitMs` (default `withinMs`). A trial that ends before the heal
 * recovers only if it reached the goal anyway.
 */
export const recovery: Checker = {
  name: 'recovery',
  rules: ['R6', 'R9'],
  description:
    'After the heal, the goal is reached within recovery.withinMs, with at most recovery.maxCallsAfter ' +
    'new calls, and no wait begun under the faults outlives them by more than recovery.maxStaleWaitMs.',
  check(record, expect): Verdict {
    const m = measureRecovery(record, expect);
    const want = expect.recovery;
    const restart = unfinishedRestart(record);
    if (!m || !want) return restart ? failAll([restart]) : pass();
    const problems: { message: string; evidence: unknown }[] = restart ? [restart] : [];
    const heal = `the heal at t=${m.healAtMs}ms`;
    if (!m.goalReached) {
      const goal = goalState.check(record, expect);
      const why = goal.valid === false || goal.valid === 'unknown' ? goal.message : 'the goal does not hold';
      const when = m.healed
        ? `after ${heal}`
        : `(the trial ended at t=${record.history.at(-1)?.t ?? 0}ms, before ${heal})`;
      problems.push({
        message: `the goal was never reached ${when}: ${why}`,
        evidence: { healAtMs: m.healAtMs, healed: m.healed },
      });
    } else if (m.timeToRecoverMs !== null && m.timeToRecoverMs > want.withinMs) {
      problems.push({
        message: `the goal was reached at t=${m.reachedAtMs}ms, ${m.timeToRecoverMs}ms after ${heal}; expected within ${want.withinMs}ms`,
        evidence: {
          healAtMs: m.healAtMs,
          reachedAtMs: m.reachedAtMs,
          timeToRecoverMs: m.timeToRecoverMs,
          withinMs: want.withinMs,
        },
      });
    }
    if (want.maxCallsAfter !== undefined && m.callsAfter.length > want.maxCallsAfter) {
      problems.push({
        message: `${m.callsAfter.length} tool calls started after ${heal} (${m.callsAfter
          .slice(0, 5)
          .map((c) => c.call)
          .join(', ')}${m.callsAfter.length > 5 ? ', …' : ''}); expected at most ${want.maxCallsAfter}`,
        evidence: {
          healAtMs: m.healAtMs,
          maxCallsAfter: want.maxCallsAfter,
          calls: m.callsAfter.slice(0, 20).map((c) => ({ call: c.call, seq: c.seq, t: c.t })),
        },
      });
    }
    const maxStale = want.maxStaleWaitMs ?? want.withinMs;
    const stale = m.staleWaits.filter((w) => w.waitMs > maxStale);
    if (stale.length > 0) {
      const more = stale.length > 1 ? ` (and ${stale.length - 1} more agent${stale.length === 2 ? '' : 's'})` : '';
      problems.push({
        message: `${staleText(stale[0]!, m.healAtMs, maxStale)}${more}`,
        evidence: {
          healAtMs: m.healAtMs,
          maxStaleWaitMs: maxStale,
          waits: stale.slice(0, 20).map((w) => ({ ...w, ...(w.on && { on: { ...w.on } }) })),
        },
      });
    }
    return failAll(problems);
  },
};
