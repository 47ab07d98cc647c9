import { canonicalJson, type Rng } from '../core/index.js';
import type { FaultOf, LieFault } from './fault.js';

/** What a lie made of an answer: the answer told instead, or none (nothing in the answer to lie about). */
export type Told = { readonly kind: 'told'; readonly answered: unknown } | { readonly kind: 'none' };

export const toldIfDifferent = (held: unknown, answered: unknown): Told =>
  canonicalJson(held) === canonicalJson(answered) ? { kind: 'none' } : { kind: 'told', answered };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An `OperationStatus` (R21), as a status query answers it. */
const STATUS_STATES = ['succeeded', 'failed', 'pending', 'not_found'] as const;
const isStatusAnswer = (v: unknown): boolean =>
  isObject(v) && typeof v['state'] === 'string' && (STATUS_STATES as readonly string[]).includes(v['state']);

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
  if (isObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, Array.isArray(v) ? v.slice(0, keep) : v]));
  return value;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** The numbers a declared output schema allows at one field (bounds inclusive; an exclusive one is left to its `safeParse`). */
export interface NumberRange {
  readonly min: number;
  readonly max: number;
  readonly int: boolean;
}

/**
 * What a tool's declared output schema says of its answers (see `declaredOutput`), so that a
 * lie stays an answer the schema accepts. Paths are split on dots; `held` is the true answer,
 * which picks the member of a union a path runs through.
 */
export interface DeclaredOutput {
  accepts(value: unknown): boolean;
  /** The schema's empty value for `held`: lists emptied, nullable fields null, optional ones gone. */
  emptyOf(held: unknown): unknown;
  /** The values the schema names for the field at `path` (an enum, literals, a boolean), if it names them. */
  membersAt(held: unknown, path: readonly string[]): readonly unknown[] | undefined;
  /** The bounds the schema sets on the number at `path`, if it is a number. */
  rangeAt(held: unknown, path: readonly string[]): NumberRange | undefined;
}

/**
 * A different number: a step of 1 to 99 (hundredths for a fraction) down or up, or, where a range leaves no room for
 * either, another in it.
 */
function otherNumber(old: number, rng: Rng, range: NumberRange | undefined): number {
  const step = rng.int(1, 99);
  const int = Number.isInteger(old);
  if (!range) return int ? (old >= step ? old - step : old + step) : old + step / 100;
  const delta = int ? step : step / 100;
  const tries = int && old >= step ? [old - delta, old + delta] : [old + delta, old - delta];
  const fits = tries.find((n) => n >= range.min && n <= range.max);
  if (fits !== undefined) return fits;
  const lo = int ? Math.ceil(range.min) : range.min;
  const hi = int ? Math.floor(range.max) : range.max;
  // One value only: nothing else to say (the lie is then told no more than the truth).
  if (!(hi > lo)) return old;
  if (!int) return lo + (hi - lo) * rng.next();
  const n = rng.int(lo, hi - 1);
  return n >= old ? n + 1 : n;
}

/** A value of the same JSON type as `old` and different from it; another of `choices` when there are some. */
function differentValue(old: unknown, rng: Rng, choices: readonly unknown[] | undefined, range?: NumberRange): unknown {
  const others = choices?.filter((c) => c !== old) ?? [];
  if (others.length > 0) return others[rng.int(0, others.length - 1)];
  if (typeof old === 'boolean') return !old;
  if (typeof old === 'number') return otherNumber(old, rng, range);
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
 * `rng`; `enumAt` gives the output schema's members for that path where it declares an enum,
 * `rangeAt` its bounds where it declares a number.
 */
export function wrongValueOf(
  value: unknown,
  path: string,
  rng: Rng,
  enumAt?: (path: readonly string[]) => readonly unknown[] | undefined,
  rangeAt?: (path: readonly string[]) => NumberRange | undefined,
): Told {
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
  holder[last] = differentValue(holder[last], rng, enumAt?.(parts), rangeAt?.(parts));
  return toldIfDifferent(value, copy);
}

/**
 * Draws a `wrong_value` lie can make before it gives up: a draw the declared schema refuses (a
 * refinement, a string format, an exclusive bound) is drawn again, never told.
 */
const DECLARED_DRAWS = 8;

/**
 * The answer an `empty`, `truncated` or `wrong_value` fault gives instead of `held` (a `stale`
 * read is the service's to answer). With the tool's `declared` output schema the lie is drawn
 * from it (another member of an enum, the schema's empty value) and never answers what the
 * schema refuses; without one, or when the schema refuses `held` itself (so it does not
 * describe this answer: a route that reshapes it), from the answer's JSON shape, drawing
 * exactly as it always has.
 */
export function lieAbout(
  fault: Exclude<LieFault, FaultOf<'stale'>>,
  held: unknown,
  rng: Rng,
  declared?: DeclaredOutput,
): Told {
  const schema = declared?.accepts(held) ? declared : undefined;
  switch (fault.kind) {
    case 'empty': {
      const told = toldIfDifferent(held, schema ? schema.emptyOf(held) : emptyOf(held));
      return schema ? validUnder(schema, told) : told;
    }
    case 'truncated': {
      const told = toldIfDifferent(held, truncatedOf(held, fault.keep));
      return schema ? validUnder(schema, told) : told;
    }
    case 'wrong_value':
      // A status answer's `state` is one of four (R21): a lie about it names another.
      if (!schema)
        return wrongValueOf(held, fault.path, rng, (path) =>
          isStatusAnswer(held) && path.join('.') === 'state' ? STATUS_STATES : undefined,
        );
      for (let draw = 0; draw < DECLARED_DRAWS; draw++) {
        const told = wrongValueOf(
          held,
          fault.path,
          rng,
          (path) => schema.membersAt(held, path),
          (path) => schema.rangeAt(held, path),
        );
        if (told.kind === 'none' || schema.accepts(told.answered)) return told;
      }
      return { kind: 'none' };
  }
}

/** A lie the declared schema refuses would not look like success: it is not told. */
const validUnder = (schema: DeclaredOutput, told: Told): Told =>
  told.kind === 'told' && !schema.accepts(told.answered) ? { kind: 'none' } : told;
