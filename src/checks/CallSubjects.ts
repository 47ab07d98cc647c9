import type { Claim } from '../core/index.js';
import { parseSubject, STATUS_TOOL, subjectOf, type TrialIndex } from './trialIndex.js';
import { push } from './push.js';

/**
 * The subjects each call acted on: the ledger's names for what its requests committed, or,
 * when it committed nothing, the claims whose key is the call's business key. Status queries
 * act on none. Worked out per call on first ask: a crowd whose agents claim nothing and meet no
 * unknown outcome never asks, and used to pay for every call's effects and subjects anyway.
 */
export class CallSubjects {
  readonly #byCall = new Map<string, readonly string[]>();
  #bySubject: Map<string, string[]> | undefined;
  #claimedByKey: Map<string, readonly string[]> | undefined;

  constructor(
    readonly index: TrialIndex,
    readonly claims: readonly Claim[],
  ) {}

  of(call: string): readonly string[] {
    let subjects = this.#byCall.get(call);
    if (subjects === undefined) {
      const event = this.index.call(call);
      subjects = event === undefined || event.tool === STATUS_TOOL ? [] : this.#subjectsOf(call);
      this.#byCall.set(call, subjects);
    }
    return subjects;
  }

  /** The calls that acted on `subject`, in the order they were made. */
  callsOf(subject: string): string[] {
    this.#bySubject ??= this.#callsBySubject();
    return [...(this.#bySubject.get(subject) ?? [])];
  }

  /**
   * Every subject's calls, from one pass over the calls on the first ask. Looking through every
   * call once per claim made honesty quadratic in a crowd whose agents each claim something; the
   * first claim already worked out every call's subjects, so the pass costs no more than it did.
   */
  #callsBySubject(): Map<string, string[]> {
    const bySubject = new Map<string, string[]>();
    for (const c of this.index.calls) {
      if (c.tool === STATUS_TOOL) continue;
      for (const subject of this.of(c.call)) push(bySubject, subject, c.call);
    }
    return bySubject;
  }

  #subjectsOf(call: string): readonly string[] {
    const committed = [...new Set(this.index.effectsOfCall(call).map((e) => subjectOf(e.service, e.key)))];
    if (committed.length > 0) return committed;
    const key = this.index.businessKeyOf(call);
    if (key === undefined) return [];
    this.#claimedByKey ??= claimedByKey(this.claims);
    return this.#claimedByKey.get(key) ?? [];
  }
}

/**
 * The claimed subjects under each key, each once, in the order first claimed: read for every call
 * that committed nothing, so a crowd's refused calls do not each look through every agent's claims.
 */
function claimedByKey(claims: readonly Claim[]): Map<string, readonly string[]> {
  const byKey = new Map<string, string[]>();
  for (const c of claims) {
    const key = parseSubject(c.subject)?.key;
    if (key === undefined) continue;
    const subjects = byKey.get(key);
    if (subjects === undefined) byKey.set(key, [c.subject]);
    else if (!subjects.includes(c.subject)) subjects.push(c.subject);
  }
  return byKey;
}
