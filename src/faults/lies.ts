import { canonicalJson, type Rng } from '../core/index.js';
import type { FaultOf, LieFault } from './fault.js';

/** What a lie made of an answer: the answer told instead, or none (nothing in the answer to lie about). */
export type Told = { readonly kind: 'told'; readonly answered: unknown } | { readonly kind: 'none' };

export const toldIfDifferent = (held: unknown, answered: unknown): Told => (canonicalJson(held) === canonicalJson(answered) ? { kind: 'none' } : { kind: 'told', answered });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An `OperationStatus` (R21), as a status query answers it. */
const STATUS_STATES = ['succeeded', 'failed', 'pending', 'not_found'] as const;
const isStatusAnswer = (v: unknown): boolean => isObject(v) && typeof v['state'] === 'string' && (STATUS_STATES as readonly string[]).includes(v['state']);

/**
 * The empty value of an answer's shape: a list is `[]`; a status answer is `not_found`; an
 * object holding lists keeps its other fields with every list emptied; anything else (one
 * record, a scalar) is `null`, the "no such thing" of a JSON API.
 */
export function emptyOf(value: unknown): unknown {
  if (Array.isArray(value)) return [];
  if (isStatusAnswer(value)) return { state: 'not_found' };
  if (isObject(value) && Object.values(value).some(Array.isArray)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, Array.isArray(v) ? [] : v]));
  }
  return null;
}

/** A list cut to its first `keep` items (every list at the top of an object answer), a text to `keep` characters. */
export function truncatedOf(value: unknown, keep: number): unknown {
  if (Array.isArray(value)) return value.slice(0, keep);
  if (typeof value === 'string') return value.slice(0, keep);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, Array.isArray(v) ? v.slice(0, keep) : v]));
  return value;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A value of the same JSON type as `old` and different from it; another of `choices` when there are some. */
function differentValue(old: unknown, rng: Rng, choices: readonly unknown[] | undefined): unknown {
  const others = choices?.filter((c) => c !== old) ?? [];
  if (others.length > 0) return others[rng.int(0, others.length - 1)];
  if (typeof old === 'boolean') return !old;
  if (typeof old === 'number') {
    const step = rng.int(1, 99);
    return Number.isInteger(old) ? (old >= step ? old - step : old + step) : old + step / 100;
  }
  if (typeof old === 'string') {
    let out = '';
    for (let i = 0; i < Math.max(4, Math.min(old.length, 12)); i++) out += ALPHABET[rng.int(0, ALPHABET.length - 1)];
    return out === old ? `${out}x` : out;
  }
  if (Array.isArray(old)) return old.length > 0 ? old.slice(1) : [null];
  if (isObject(old)) return null;
  return 'x';
}

/**
 * The answer with the field at `path` replaced by a different value of its type, drawn from
 * `rng`; `enumAt` gives the output schema's members for that path where it declares an enum.
 */
export function wrongValueOf(value: unknown, path: string, rng: Rng, enumAt?: (path: readonly string[]) => readonly unknown[] | undefined): Told {
  const parts = path.split('.');
  const copy = structuredClone(value);
  let parent: unknown = copy;
  for (const part of parts.slice(0, -1)) {
    if (!isObject(parent) && !Array.isArray(parent)) return { kind: 'none' };
    parent = (parent as Record<string, unknown>)[part];
  }
  const last = parts.at(-1)!;
  if ((!isObject(parent) && !Array.isArray(parent)) || !Object.hasOwn(parent, last)) return { kind: 'none' };
  const holder = parent as Record<string, unknown>;
  holder[last] = differentValue(holder[last], rng, enumAt?.(parts));
  return toldIfDifferent(value, copy);
}

/** The answer an `empty`, `truncated` or `wrong_value` fault gives instead of `held` (a `stale` read is the service's to answer). */
export function lieAbout(fault: Exclude<LieFault, FaultOf<'stale'>>, held: unknown, rng: Rng, enumAt?: (path: readonly string[]) => readonly unknown[] | undefined): Told {
  switch (fault.kind) {
    case 'empty':
      return toldIfDifferent(held, emptyOf(held));
    case 'truncated':
      return toldIfDifferent(held, truncatedOf(held, fault.keep));
    case 'wrong_value':
      // A status answer's `state` is one of four (R21): a lie about it names another.
      return wrongValueOf(held, fault.path, rng, (path) => (isStatusAnswer(held) && path.join('.') === 'state' ? STATUS_STATES : enumAt?.(path)));
  }
}
