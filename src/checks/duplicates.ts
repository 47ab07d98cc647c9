import { failAll, pass, type EventOf, type Verdict } from '../core/index.js';
import type { Effect } from '../world/ledger.js';
import type { Checker } from './checker.js';
import { list, seqs, times, unique } from './format.js';
import { describeLie } from './lieNote.js';
import { lastBefore } from './seqSearch.js';
import { subjectOf, TrialIndex } from './trialIndex.js';
import { push } from './push.js';

/** `order.created` → `was created`; an effect name without a verb is quoted as is. */
function happened(effect: string): string {
  const dot = effect.lastIndexOf('.');
  return dot >= 0 && dot < effect.length - 1 ? `was ${effect.slice(dot + 1)}` : `had effect ${effect}`;
}

/** Why the same effect could commit twice, read from the keys and requests involved. */
function diagnose(keys: readonly string[], keyless: boolean, requests: readonly string[], honoured: boolean): string {
  if (keys.length > 1)
    return `: ${keys.length} different idempotency keys (${list(keys)}) for one business operation, a new key per retry (R23)`;
  if (!honoured)
    return `: resent to a service that does not honour idempotency keys; only reconciliation by business key prevents this (R21, R25)`;
  if (requests.length === 1)
    return `: request ${requests[0]} was delivered more than once and the service executed every copy (R24)`;
  if (keys.length === 1 && !keyless)
    return `: the service executed idempotency key ${keys[0]} again instead of replaying its first result (R24)`;
  if (keys.length === 0) return ': resent without an idempotency key (R22, R25)';
  return `: some attempts carried idempotency key ${keys[0]} and some none (R22, R23)`;
}

function describeGroup(
  index: TrialIndex,
  lies: Lies,
  group: readonly Effect[],
): { message: string; evidence: unknown } {
  const first = group[0]!;
  const requests = unique(group.map((e) => e.request));
  const sent = sentFor(index, requests);
  const calls = unique(sent.map((a) => a.call));
  const tools = unique(sent.map((a) => a.tool));
  const keyed = [...group.map((e) => e.idempotencyKey), ...sent.map((a) => a.idempotencyKey)];
  const keys = unique(keyed.filter((k): k is string => k !== undefined));
  const keyless = keyed.some((k) => k === undefined);
  const subject = subjectOf(first.service, first.key);

  const where = [`effects ${seqs(group.map((e) => e.seq))}`, `requests ${list(requests)}`];
  if (calls.length > 0) where.push(`calls ${list(calls)} of ${list(tools)}`);
  // Unknown calls (no tool_call recorded) are given the benefit of the doubt: the service may honour keys.
  const honoured = calls.every((c) => index.call(c)?.honoursKeys ?? true);
  const lie = lieBefore(index, lies, group);
  const what = `${subject} ${happened(first.effect)} ${times(group.length)} (${where.join('; ')})`;
  const diagnosis = diagnose(keys, keyless, requests, honoured);
  const cause = lie ? `; caused by ${describeLie(lie)}` : '';
  const message = `${what}${diagnosis}${cause}`;

  return {
    message,
    evidence: {
      subject,
      effect: first.effect,
      effects: group.map((e) => effectEvidence(index, e)),
      requests: requests.map((r) => requestEvidence(index, r)),
      calls,
      idempotencyKeys: keys,
      ...(lie ? { causedBy: lieEvidence(lie) } : {}),
    },
  };
}

/** What sent each request: its runtime attempt, else its wire record. */
function sentFor(index: TrialIndex, requests: readonly string[]): Sent[] {
  const attempts = requests.flatMap((r) => {
    const a = index.attemptFor(r);
    return a ? [a] : [];
  });
  // Requests that came over HTTP (the agent's own client, a served world, MCP) have no runtime
  // attempt; their wire record names the call and tool the same way.
  const wire = requests.flatMap((r) => {
    const h = index.attemptFor(r) ? undefined : index.httpRequest(r);
    return h ? [h] : [];
  });
  return [...attempts, ...wire];
}

/** One effect of the group, with the history event that recorded it. */
function effectEvidence(index: TrialIndex, e: Effect): unknown {
  const event = index.effectEvent(e.seq);
  return {
    seq: e.seq,
    at: e.at,
    request: e.request,
    ...(event ? { t: event.t, event: event.seq } : {}),
    ...(e.idempotencyKey !== undefined ? { idempotencyKey: e.idempotencyKey } : {}),
  };
}

/** One request of the group: how often it was delivered, and the attempt (or wire record) that sent it. */
function requestEvidence(index: TrialIndex, r: string): unknown {
  const a = index.attemptFor(r) ?? index.httpRequest(r);
  return {
    request: r,
    deliveries: index.deliveriesOf(r).length,
    ...(a
      ? {
          call: a.call,
          attempt: a.attempt,
          tool: a.tool,
          purpose: a.purpose,
          t: a.t,
          ...(a.idempotencyKey !== undefined ? { idempotencyKey: a.idempotencyKey } : {}),
        }
      : {}),
  };
}

const lieEvidence = (lie: EventOf<'lie'>): unknown => ({
  event: lie.seq,
  t: lie.t,
  request: lie.request,
  tool: lie.tool,
  purpose: lie.purpose,
  fault: lie.fault,
  held: lie.held,
  answered: lie.answered,
});

/**
 * The lie a repeat most likely acted on: the last `lie` event after the first effect and
 * before the repeat (a stale or empty read that said the first one was not there).
 */
function lieBefore(index: TrialIndex, lies: Lies, group: readonly Effect[]): EventOf<'lie'> | undefined {
  const [firstSeq, repeatSeq] = group.slice(0, 2).map((e) => index.effectEvent(e.seq)?.seq);
  if (firstSeq === undefined || repeatSeq === undefined) return undefined;
  // Looked up, not filtered from the whole history per duplicate: a crowd's many duplicates made that quadratic.
  const last = lies.events[lastBefore(lies.seqs, repeatSeq)];
  return last !== undefined && last.seq > firstSeq ? last : undefined;
}

/** What sent a request: a runtime attempt, or an HTTP request's wire record. */
type Sent = EventOf<'attempt'> | EventOf<'http_request'>;

/** The trial's lies in history order, and their seqs (ascending) to search. */
interface Lies {
  readonly events: readonly EventOf<'lie'>[];
  readonly seqs: readonly number[];
}

/** R18, R21–R25, R29: no side effect commits twice for one business key. */
export const duplicates: Checker = {
  name: 'duplicates',
  rules: ['R18', 'R21', 'R22', 'R23', 'R24', 'R25', 'R29'],
  description:
    'The ledger holds at most one effect per (service, effect, business key); each duplicate is traced ' +
    'to its requests, calls and idempotency keys.',
  check(record): Verdict {
    // One effect or none cannot commit twice: most trials stop here, before a key is printed.
    if (record.snapshot.ledger.length < 2) return pass();
    const index = TrialIndex.of(record);
    const groups = new Map<string, Effect[]>();
    for (const e of record.snapshot.ledger) {
      const id = JSON.stringify([e.service, e.effect, e.key]);
      push(groups, id, e);
    }
    const lieEvents = index.eventsOf('lie');
    const lies = { events: lieEvents, seqs: lieEvents.map((e) => e.seq) };
    const problems = [...groups.values()].filter((g) => g.length > 1).map((g) => describeGroup(index, lies, g));
    return failAll(problems);
  },
};
