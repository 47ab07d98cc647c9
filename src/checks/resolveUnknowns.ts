import type { EventOf } from '../core/index.js';
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
  const open = new Set<Pending>();
  const byCall = new Map<string, Set<Pending>>();
  const byOp = new Map<string, Set<Pending>>();
  const bySubject = new Map<string, Set<Pending>>();
  const bySame = new Map<string, Set<Pending>>();
  // Each outcome gets a resolution object of its own (one event can settle many): evidence shares none.
  const settle = (p: Pending, r: Resolution): void => {
    resolved.set(p.o, r);
    open.delete(p);
    byCall.get(p.o.call)?.delete(p);
    if (p.o.op !== undefined) byOp.get(p.o.op)?.delete(p);
    for (const s of p.mine) bySubject.get(s)?.delete(p);
    if (p.same !== undefined) bySame.get(p.same)?.delete(p);
  };
  let next = 0;
  for (const e of index.events) {
    // Every outcome recorded before this event is open from here on.
    while (next < waiting.length && waiting[next]!.seq < e.seq) {
      const o = waiting[next++]!;
      if (resolved.has(o)) continue;
      const input = index.inputText(o.call);
      const p: Pending = {
        o,
        mine: subjects.of(o.call),
        same: input === undefined ? undefined : `${o.tool}\u0000${input}`,
        ambiguous: undefined,
      };
      open.add(p);
      file(byCall, o.call, p);
      if (o.op !== undefined) file(byOp, o.op, p);
      for (const s of p.mine) file(bySubject, s, p);
      if (p.same !== undefined) file(bySame, p.same, p);
    }
    if (open.size === 0) {
      if (next === waiting.length) break;
      continue;
    }
    if (e.type === 'reconcile') {
      if (e.found !== 'succeeded' && e.found !== 'failed') continue;
      const r = settledBy(e.seq, `reconcile #${e.seq} found ${e.found}`, e.task);
      for (const p of union(byCall.get(e.call), e.op === undefined ? undefined : byOp.get(e.op))) settle(p, { ...r });
    } else if (e.type === 'operation') {
      if (e.state !== 'succeeded' && e.state !== 'failed') continue;
      const r: Resolution = { kind: 'resolved', seq: e.seq, by: `operation ${e.op} became ${e.state} (#${e.seq})` };
      for (const p of [...(byOp.get(e.op) ?? [])]) settle(p, { ...r });
    } else if (e.type === 'outcome' && e.result === 'ok') {
      if (e.tool === STATUS_TOOL) {
        const query = index.inputText(e.call) ?? '';
        for (const p of open) {
          if (p.ambiguous !== undefined || p.o.call === e.call) continue;
          const related =
            p.o.op !== undefined
              ? query.includes(p.o.op)
              : p.mine.some((s) => query.includes(parseSubject(s)?.key ?? s));
          if (related) p.ambiguous = { kind: 'ambiguous', seq: e.seq, call: e.call };
        }
        continue;
      }
      const hit = new Set<Pending>();
      for (const s of subjects.of(e.call)) for (const p of bySubject.get(s) ?? []) hit.add(p);
      if (bySame.size > 0) {
        const input = index.inputText(e.call);
        if (input !== undefined) for (const p of bySame.get(`${e.tool}\u0000${input}`) ?? []) hit.add(p);
      }
      if (hit.size === 0) continue;
      const r = settledBy(e.seq, `${e.call} (${e.tool}) ended ok (#${e.seq})`, e.task);
      for (const p of hit) if (p.o.call !== e.call) settle(p, { ...r });
    }
  }
  for (const p of open) resolved.set(p.o, p.ambiguous ?? { kind: 'unresolved' });
  for (const o of waiting) if (!resolved.has(o)) resolved.set(o, { kind: 'unresolved' });
  return resolved;
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
