import type { EventOf, HistoryEvent } from '../core/index.js';
import type { CallSubjects } from './CallSubjects.js';
import { parseSubject, STATUS_TOOL } from './trialIndex.js';

type OutcomeEvent = EventOf<'outcome'>;

/** How an unknown outcome was settled later in the trial, if it was. */
export type Resolution =
  | { readonly kind: 'unresolved' }
  /** A status query answered, but the history does not say what it found. */
  | { readonly kind: 'ambiguous'; readonly seq: number; readonly call: string }
  | { readonly kind: 'resolved'; readonly seq: number; readonly by: string }
  /** Settled as a long task taken on (`accepted`, `running`): how the task ends is still open (R20). */
  | { readonly kind: 'taken_on'; readonly seq: number; readonly by: string };
export type ResolutionKind = Resolution['kind'];

/** One unknown outcome waiting for the event that settles it, filed under everything such an event can name. */
interface Pending {
  readonly o: OutcomeEvent;
  readonly mine: readonly string[];
  /** `tool\0canonical input`, when the call's input is known. */
  readonly same: string | undefined;
  ambiguous: Resolution | undefined;
}

/**
 * How each of `outcomes` (unknown outcomes, in history order) was settled: by the first later
 * event that settles it, a reconcile or an operation record that found a definite state, or
 * another call of the same subject or the same tool and input that ended ok; else `ambiguous`
 * after a status query that may concern it ended ok, else `unresolved`.
 *
 * One pass over the history for all of them, each event looked up by call, op, subject and
 * input among the outcomes still open; it used to be one pass per outcome, which on a faulted
 * crowd (hundreds of unknowns, tens of thousands of events) was the checker's whole cost.
 */
export function resolveUnknowns(
  subjects: CallSubjects,
  outcomes: readonly OutcomeEvent[],
): Map<OutcomeEvent, Resolution> {
  const index = subjects.index;
  const resolved = new Map<OutcomeEvent, Resolution>();
  if (outcomes.length === 0) return resolved;
  const waiting = [...outcomes].sort((a, b) => a.seq - b.seq);
  const open = new OpenOutcomes(resolved);
  let next = 0;
  for (const e of index.events) {
    // Every outcome recorded before this event is open from here on.
    while (next < waiting.length && waiting[next]!.seq < e.seq) {
      const o = waiting[next++]!;
      if (resolved.has(o)) continue;
      const input = index.inputText(o.call);
      open.add({
        o,
        mine: subjects.of(o.call),
        same: input === undefined ? undefined : `${o.tool}\u0000${input}`,
        ambiguous: undefined,
      });
    }
    if (open.all.size === 0) {
      if (next === waiting.length) break;
      continue;
    }
    settleOn(e, open, subjects);
  }
  for (const p of open.all) resolved.set(p.o, p.ambiguous ?? { kind: 'unresolved' });
  for (const o of waiting) if (!resolved.has(o)) resolved.set(o, { kind: 'unresolved' });
  return resolved;
}

/** The unknown outcomes still open, filed under everything an event that settles one can name. */
class OpenOutcomes {
  readonly all = new Set<Pending>();
  readonly byCall = new Map<string, Set<Pending>>();
  readonly byOp = new Map<string, Set<Pending>>();
  readonly bySubject = new Map<string, Set<Pending>>();
  readonly bySame = new Map<string, Set<Pending>>();

  constructor(private readonly resolved: Map<OutcomeEvent, Resolution>) {}

  add(p: Pending): void {
    this.all.add(p);
    file(this.byCall, p.o.call, p);
    if (p.o.op !== undefined) file(this.byOp, p.o.op, p);
    for (const s of p.mine) file(this.bySubject, s, p);
    if (p.same !== undefined) file(this.bySame, p.same, p);
  }

  // Each outcome gets a resolution object of its own (one event can settle many): evidence shares none.
  settle(p: Pending, r: Resolution): void {
    this.resolved.set(p.o, { ...r });
    this.all.delete(p);
    this.byCall.get(p.o.call)?.delete(p);
    if (p.o.op !== undefined) this.byOp.get(p.o.op)?.delete(p);
    for (const s of p.mine) this.bySubject.get(s)?.delete(p);
    if (p.same !== undefined) this.bySame.get(p.same)?.delete(p);
  }
}

/** Settles what `e` settles: a reconcile or an operation record that found a definite state, or a call that ended ok. */
function settleOn(e: HistoryEvent, open: OpenOutcomes, subjects: CallSubjects): void {
  if (e.type === 'reconcile') {
    if (e.found !== 'succeeded' && e.found !== 'failed') return;
    const r = settledBy(e.seq, `reconcile #${e.seq} found ${e.found}`, e.task);
    for (const p of union(open.byCall.get(e.call), e.op === undefined ? undefined : open.byOp.get(e.op)))
      open.settle(p, r);
  } else if (e.type === 'operation') {
    if (e.state !== 'succeeded' && e.state !== 'failed') return;
    const r: Resolution = { kind: 'resolved', seq: e.seq, by: `operation ${e.op} became ${e.state} (#${e.seq})` };
    for (const p of [...(open.byOp.get(e.op) ?? [])]) open.settle(p, r);
  } else if (e.type === 'outcome' && e.result === 'ok') {
    if (e.tool === STATUS_TOOL) markAmbiguous(e, open, subjects.index);
    else settleAlike(e, open, subjects);
  }
}

/** A status query that ended ok may concern an open outcome it names (its op, or a subject's key): it leaves it ambiguous. */
function markAmbiguous(e: OutcomeEvent, open: OpenOutcomes, index: CallSubjects['index']): void {
  const query = index.inputText(e.call) ?? '';
  for (const p of open.all) {
    if (p.ambiguous !== undefined || p.o.call === e.call) continue;
    const related =
      p.o.op !== undefined ? query.includes(p.o.op) : p.mine.some((s) => query.includes(parseSubject(s)?.key ?? s));
    if (related) p.ambiguous = { kind: 'ambiguous', seq: e.seq, call: e.call };
  }
}

/** Another call of the same subject, or of the same tool and input, that ended ok settles the open outcomes it shares. */
function settleAlike(e: OutcomeEvent, open: OpenOutcomes, subjects: CallSubjects): void {
  const hit = new Set<Pending>();
  for (const s of subjects.of(e.call)) for (const p of open.bySubject.get(s) ?? []) hit.add(p);
  if (open.bySame.size > 0) {
    const input = subjects.index.inputText(e.call);
    if (input !== undefined) for (const p of open.bySame.get(`${e.tool}\u0000${input}`) ?? []) hit.add(p);
  }
  if (hit.size === 0) return;
  const r = settledBy(e.seq, `${e.call} (${e.tool}) ended ok (#${e.seq})`, e.task);
  for (const p of hit) if (p.o.call !== e.call) open.settle(p, r);
}

/** Settled at `seq` by what `by` says; as a long task taken on when the settling event names one (R20). */
const settledBy = (seq: number, by: string, task: string | undefined): Resolution =>
  task === undefined ? { kind: 'resolved', seq, by } : { kind: 'taken_on', seq, by: `${by}: a task ${task}` };

function file(map: Map<string, Set<Pending>>, key: string, p: Pending): void {
  const set = map.get(key);
  if (set) set.add(p);
  else map.set(key, new Set([p]));
}

/** The pending outcomes of both sets, each once: iterated into an array, so settling one while looping is safe. */
function union(a: Set<Pending> | undefined, b: Set<Pending> | undefined): Pending[] {
  if (!b || b.size === 0) return a ? [...a] : [];
  if (!a || a.size === 0) return [...b];
  return [...new Set([...a, ...b])];
}
