import type { Rng } from '../../../core/index.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const parsed = (text: string): { readonly value: unknown } | undefined => {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
};

/**
 * Arguments that are not JSON: cut mid-value (the stream ended there), or a closing brace or
 * quote lost (a model's slip). Always invalid, even for `{}`.
 */
export function malformedArguments(args: string, rng: Rng): string {
  const text = args.length >= 2 ? args : '{}';
  if (rng.chance(0.5)) {
    // Cut somewhere inside, never at the end: `{"orderId":"ord-` .
    const at = rng.int(1, text.length - 1);
    const cut = text.slice(0, at);
    return parsed(cut) === undefined ? cut : `${cut},`;
  }
  const lastBrace = text.lastIndexOf('}');
  const dropped = lastBrace > 0 ? text.slice(0, lastBrace) + text.slice(lastBrace + 1) : `${text}}`;
  return parsed(dropped) === undefined ? dropped : `${dropped}{`;
}

export type SchemaBreak =
  'missing_required' | 'unknown_key' | 'wrong_type' | 'out_of_range' | 'renamed_keys' | 'no_arguments';

/** Breaks made only when named: a drawn break is drawn among the first four, as it always was (the same seed, the same history). */
const NAMED_ONLY: readonly SchemaBreak[] = ['renamed_keys', 'no_arguments'];

/** A key the schema does not declare, near `key` (`request_id` for `requestId`, `item_name` for `item`). */
function renamedKey(key: string, taken: (k: string) => boolean): string {
  const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  let name = snake !== key ? snake : `${key}_name`;
  for (let i = 2; taken(name); i++) name = `${key}_${i}`;
  return name;
}

/** A value of another JSON type than `v` (a number for a string, a string for a number…). */
function otherType(v: unknown): unknown {
  if (typeof v === 'string') return v.length > 0 && /^\d+$/.test(v) ? Number(v) : 42;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return v.length > 0 ? v[0] : 'none';
  if (isObj(v)) return JSON.stringify(v);
  return 'null';
}

/** A value the property's schema forbids though its type fits: not in the enum, past a bound, too long. */
function outOfRange(prop: Obj): unknown {
  if (Array.isArray(prop['enum']) && prop['enum'].length > 0) {
    const first = prop['enum'][0];
    return typeof first === 'string' ? `${first}_other` : typeof first === 'number' ? first + 1_000_000 : 'other';
  }
  if (typeof prop['maximum'] === 'number') return prop['maximum'] + 1;
  if (typeof prop['exclusiveMaximum'] === 'number') return prop['exclusiveMaximum'];
  if (typeof prop['minimum'] === 'number') return prop['minimum'] - 1;
  if (typeof prop['exclusiveMinimum'] === 'number') return prop['exclusiveMinimum'];
  if (typeof prop['maxLength'] === 'number') return 'x'.repeat(prop['maxLength'] + 1);
  if (typeof prop['minLength'] === 'number' && prop['minLength'] > 0) return '';
  if (typeof prop['pattern'] === 'string') return '!not matching!';
  return undefined;
}

/**
 * Arguments that are valid JSON and break the tool's input schema the way `wanted` says (or a way
 * drawn among those the schema allows): a required key missing, an unknown key (the schema
 * forbids extra keys or not: no tool declares it), a wrong type, a value out of range or not in
 * the enum; and, only when named, every key renamed (`renamed_keys`) or no arguments at all
 * (`no_arguments`). `undefined` when the arguments are not an object or the schema allows no such break.
 */
export function invalidArguments(
  args: string,
  schema: unknown,
  rng: Rng,
  wanted?: SchemaBreak,
): { readonly arguments: string; readonly break: SchemaBreak } | undefined {
  const value = parsed(args)?.value;
  if (!isObj(value)) return undefined;
  const s = isObj(schema) ? schema : {};
  const props = isObj(s['properties']) ? s['properties'] : {};
  const required = (Array.isArray(s['required']) ? s['required'] : []).filter(
    (k): k is string => typeof k === 'string' && k in value,
  );
  const present = Object.keys(value).filter((k) => value[k] !== undefined);
  const bounded = present.filter((k) => isObj(props[k]) && outOfRange(props[k]) !== undefined);
  const ways: Record<SchemaBreak, (() => Obj) | undefined> = {
    missing_required:
      required.length > 0
        ? () => {
            const gone = required[rng.int(0, required.length - 1)]!;
            return Object.fromEntries(Object.entries(value).filter(([k]) => k !== gone));
          }
        : undefined,
    unknown_key: () => {
      let key = 'note';
      for (let i = 2; key in props || key in value; i++) key = `note_${i}`;
      return { ...value, [key]: 'as you asked' };
    },
    wrong_type:
      present.length > 0
        ? () => {
            const k = present[rng.int(0, present.length - 1)]!;
            return { ...value, [k]: otherType(value[k]) };
          }
        : undefined,
    out_of_range:
      bounded.length > 0
        ? () => {
            const k = bounded[rng.int(0, bounded.length - 1)]!;
            return { ...value, [k]: outOfRange(props[k] as Obj) };
          }
        : undefined,
    // Every key named the way the schema does not (a model that guessed the parameters' names).
    renamed_keys:
      present.length > 0
        ? () =>
            Object.fromEntries(
              Object.entries(value).map(([k, v]) => [renamedKey(k, (n) => n in props || n in value), v]),
            )
        : undefined,
    // The call with no arguments at all, where the schema requires some.
    no_arguments: required.length > 0 ? () => ({}) : undefined,
  };
  const possible = (Object.keys(ways) as SchemaBreak[]).filter((w) => ways[w] !== undefined && !NAMED_ONLY.includes(w));
  const way = wanted ?? possible[rng.int(0, possible.length - 1)]!;
  const make = ways[way];
  return make ? { arguments: JSON.stringify(make()), break: way } : undefined;
}

/** Fields that hold an amount: a plausible wrong one is a slip of a digit or a decimal point. */
const AMOUNT_FIELD = /(amount|price|total|cents|quantity|qty|count|sum|value)/i;

/** The id-like prefix of an id (`ord-` of `ord-17`, `cus_` of `cus_9Q`): ids of one kind share it. */
const prefixOf = (id: string): string => id.replace(/[0-9A-Za-z]*$/, '') || id.replace(/\d+$/, '');

/**
 * Valid arguments about another entity: a string argument the world knows as an id becomes
 * another id of the same kind the world holds (another user's order), else a number argument that
 * is an amount becomes a plausible wrong amount (ten times, a tenth, off by one). `undefined` when
 * the arguments name no entity the world holds and carry no amount.
 */
export function wrongTarget(args: string, entities: readonly string[], rng: Rng): string | undefined {
  const value = parsed(args)?.value;
  if (!isObj(value)) return undefined;
  const ids = Object.entries(value).filter(
    (e): e is [string, string] => typeof e[1] === 'string' && entities.includes(e[1]),
  );
  for (const [key, id] of ids) {
    const kin = entities.filter((other) => other !== id && prefixOf(other) === prefixOf(id));
    const others = kin.length > 0 ? kin : entities.filter((other) => other !== id && !ids.some(([, v]) => v === other));
    if (others.length === 0) continue;
    return JSON.stringify({ ...value, [key]: others[rng.int(0, others.length - 1)] });
  }
  const amounts = Object.entries(value).filter(
    (e): e is [string, number] => typeof e[1] === 'number' && (AMOUNT_FIELD.test(e[0]) || Number.isInteger(e[1])),
  );
  if (amounts.length === 0) return undefined;
  const [key, n] = amounts[rng.int(0, amounts.length - 1)]!;
  const slips = [n * 10, Math.round(n / 10), n + 1, n > 1 ? n - 1 : n + 2].filter((m) => m !== n && m > 0);
  // A negative or zero amount has no plausible positive slip here: no wrong target, rather than a key dropped.
  if (slips.length === 0) return undefined;
  return JSON.stringify({ ...value, [key]: slips[rng.int(0, slips.length - 1)] });
}
