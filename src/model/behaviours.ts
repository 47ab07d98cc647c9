import { z } from 'zod';
import type { Rng } from '../core/index.js';

/**
 * How a scripted model reacts to feedback. `careful` follows the rulebook; every other
 * behaviour but the last is one deliberate, named bug that some checker must catch;
 * `verifies-critical-reads` is careful and distrusts an absence too.
 */
export const BEHAVIOURS = [
  'careful',
  /** After any error, even quota, permission or bad arguments, re-issues the same call at once, up to 3 more times. */
  'retries-blindly',
  /** After `unknown`, re-submits the call as a new call (a new operation and key) instead of asking its status (breaks R21, R23). */
  'new-key-per-retry',
  /** After a retryable error, re-calls at once, ignoring `retry_after_ms`, up to 3 times (breaks R9, R10). */
  'ignores-retry-after',
  /** Reports `unknown` as `failed` (breaks R20). */
  'unknown-as-failure',
  /** Reports `unknown` as `completed` (breaks R20). */
  'unknown-as-success',
  /**
   * Careful, and distrusts an absence: where a step acts on one (`onAbsent: resubmit`), a status
   * read that finds nothing is read once more, after a pause, before the step is submitted again
   * (a stale or empty answer is then caught by the second read); before a step acts on an earlier
   * read (`ifEmpty` on an empty answer, `forEach` on any list), it runs that read again and goes by
   * the second answer. The others act on the first read.
   */
  'verifies-critical-reads',
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

/**
 * A mixture: each decision the scripted model takes after a failed or unconfirmed call (retry,
 * wait, stop, what to report) draws one behaviour with these weights, from the trial's rng.
 * `{ careful: 0.9, ignores-retry-after: 0.1 }`: one decision in ten ignores a Retry-After.
 */
export type BehaviourMix = Readonly<Partial<Record<Behaviour, number>>>;
/** One behaviour for every decision, or a mixture drawn per decision. */
export type BehaviourSpec = Behaviour | BehaviourMix;

const isBehaviour = (name: string): name is Behaviour => (BEHAVIOURS as readonly string[]).includes(name);

/** A mixture: known names, weights ≥ 0, at least one above 0. */
export const BehaviourMixSchema = z.record(z.string(), z.unknown()).superRefine((mix, ctx) => {
  let sum = 0;
  let bad = false;
  for (const [name, weight] of Object.entries(mix)) {
    if (!isBehaviour(name))
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `"${name}" is not a behaviour; expected one of ${BEHAVIOURS.join(', ')}`,
      });
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
      bad = true;
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `expected a weight, a finite number ≥ 0; got ${JSON.stringify(weight) ?? String(weight)}`,
      });
    } else sum += weight;
  }
  // A sum over weights already refused would only repeat the complaint.
  if (!bad && sum <= 0)
    ctx.addIssue({
      code: 'custom',
      message: `the weights sum to 0; expected at least one behaviour with a weight above 0 (${BEHAVIOURS.join(', ')})`,
    });
}) as unknown as z.ZodType<BehaviourMix>;

/** A behaviour name, or a mixture of them (`{ careful: 0.9, ignores-retry-after: 0.1 }`). */
export const BehaviourSpecSchema = z.union([z.enum(BEHAVIOURS), BehaviourMixSchema]);

/** `careful`, or a mixture as `careful=0.9,ignores-retry-after=0.1` (in the order of `BEHAVIOURS`). */
export function describeBehaviour(spec: BehaviourSpec): string {
  if (typeof spec === 'string') return spec;
  return BEHAVIOURS.filter((b) => spec[b] !== undefined)
    .map((b) => `${b}=${spec[b]}`)
    .join(',');
}

/**
 * What the scripted model consults at each decision: a fixed behaviour draws nothing; a mixture
 * draws from `rng` (the trial's `behaviour` fork), walking the weights in the order of
 * `BEHAVIOURS`, so a file's key order changes no draw and the same seed makes the same choices.
 */
export function behaviourPicker(spec: BehaviourSpec, rng: Rng | undefined): () => Behaviour {
  if (typeof spec === 'string') return () => spec;
  const weighted = BEHAVIOURS.map((b) => [b, spec[b] ?? 0] as const).filter(([, w]) => w > 0);
  const only = weighted.length === 1 ? weighted[0]![0] : undefined;
  if (only !== undefined) return () => only;
  if (weighted.length === 0)
    throw new TypeError(`behaviour mixture ${JSON.stringify(spec)}: no behaviour has a weight above 0`);
  if (!rng)
    throw new TypeError(
      `behaviour mixture ${describeBehaviour(spec)}: a mixture draws from the trial's rng; pass options.rng`,
    );
  const total = weighted.reduce((sum, [, w]) => sum + w, 0);
  return () => {
    let r = rng.next() * total;
    for (const [b, w] of weighted) {
      if (r < w) return b;
      r -= w;
    }
    return weighted.at(-1)![0];
  };
}
