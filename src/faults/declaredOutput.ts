import type { DeclaredOutput, NumberRange } from './lies.js';

/**
 * What this module reads of a zod 4 schema. Structure comes from `_zod.def` and literal values
 * from `_zod.values`: zod documents them for library authors, and they are the same in zod
 * and zod/mini and across two installed copies (a service module may import its own zod, so
 * `instanceof` and the classic-only methods cannot be relied on). A number's bounds come from
 * the classic API (`minValue`, `maxValue`, `isInt`) where the schema has it.
 */
interface ZodNode {
  readonly _zod: {
    readonly def: ZodDef;
    readonly values?: ReadonlySet<unknown>;
    /** `'optional'`: the key may be absent from the output (`.optional()`, but not `.default()`). */
    readonly optout?: 'optional';
  };
  safeParse(value: unknown): { readonly success: boolean };
  readonly minValue?: number | null;
  readonly maxValue?: number | null;
  readonly isInt?: boolean;
}

interface ZodDef {
  readonly type: string;
  readonly innerType?: ZodNode;
  readonly shape?: Readonly<Record<string, ZodNode>>;
  readonly catchall?: ZodNode;
  readonly element?: ZodNode;
  readonly items?: readonly ZodNode[];
  readonly rest?: ZodNode | null;
  readonly valueType?: ZodNode;
  readonly options?: readonly ZodNode[];
  readonly out?: ZodNode;
  readonly getter?: () => ZodNode;
}

/** A schema with its wrappers (optional, nullable, default, readonly, lazy, a pipe's output side) taken off. */
interface Slot {
  readonly core: ZodNode;
  /** It accepts `null`. */
  readonly nullable: boolean;
  /** Its key may be absent from an object. */
  readonly optional: boolean;
}

const isZodNode = (value: unknown): value is ZodNode =>
  typeof value === 'object' &&
  value !== null &&
  '_zod' in value &&
  typeof (value as { safeParse?: unknown }).safeParse === 'function';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Wrappers whose output is their inner schema's (or `null`/absent as well). */
const PASS_THROUGH = new Set(['default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** Each schema node is unwrapped once, whichever tool, trial or path reaches it. */
const slots = new WeakMap<ZodNode, Slot>();

function slotOf(node: ZodNode): Slot {
  const known = slots.get(node);
  if (known) return known;
  let core = node;
  let nullable = false;
  // Bounded: a lazy schema that only ever returns itself would otherwise loop.
  for (let depth = 0; depth < 64; depth++) {
    const def = core._zod.def;
    if (def.type === 'nullable' || def.type === 'optional' || PASS_THROUGH.has(def.type)) {
      nullable ||= def.type === 'nullable';
      if (!def.innerType) break;
      core = def.innerType;
    } else if (def.type === 'lazy' && def.getter) core = def.getter();
    // A transform's output has no shape to read: the pipe stays the core, and nothing is drawn from it.
    else if (def.type === 'pipe' && def.out && def.out._zod.def.type !== 'transform') core = def.out;
    else break;
  }
  const type = core._zod.def.type;
  if (type === 'null') nullable = true;
  if (type === 'union') nullable ||= (core._zod.def.options ?? []).some((o) => slotOf(o).nullable);
  const slot = { core, nullable, optional: node._zod.optout === 'optional' };
  slots.set(node, slot);
  return slot;
}

const typeOf = (slot: Slot): string => slot.core._zod.def.type;

/** The values a slot is one of (an enum, literals, a boolean, a union of those), `null` and absence aside. */
function membersOf(slot: Slot): readonly unknown[] | undefined {
  const def = slot.core._zod.def;
  if (def.type === 'boolean') return [true, false];
  if (def.type === 'enum' || def.type === 'literal')
    return [...(slot.core._zod.values ?? [])].filter((v) => v !== null && v !== undefined);
  if (def.type !== 'union') return undefined;
  const out: unknown[] = [];
  for (const option of def.options ?? []) {
    const o = slotOf(option);
    if (typeOf(o) === 'null' || typeOf(o) === 'undefined') continue;
    const members = membersOf(o);
    if (!members) return undefined;
    for (const m of members) if (!out.includes(m)) out.push(m);
  }
  return out;
}

/** A union of shapes (not of literals) read through the option that accepts `value`, as zod would parse it. */
function resolved(slot: Slot, value: unknown): Slot | undefined {
  if (typeOf(slot) !== 'union' || membersOf(slot)) return slot;
  const option = (slot.core._zod.def.options ?? []).find((o) => o.safeParse(value).success);
  return option && resolved(slotOf(option), value);
}

/** The schema of the field at `path` inside `value`, following objects, arrays (`lines.0.sku`), tuples and records. */
function slotAt(schema: ZodNode, value: unknown, path: readonly string[]): Slot | undefined {
  let slot: Slot | undefined = slotOf(schema);
  let here = value;
  for (const part of path) {
    slot = slot && resolved(slot, here);
    if (!slot) return undefined;
    const def = slot.core._zod.def;
    const index = /^\d+$/.test(part) ? Number(part) : undefined;
    let next: ZodNode | undefined;
    if (def.type === 'object') next = def.shape && Object.hasOwn(def.shape, part) ? def.shape[part] : def.catchall;
    else if (def.type === 'array') next = index === undefined ? undefined : def.element;
    else if (def.type === 'tuple')
      next = index === undefined ? undefined : (def.items?.[index] ?? def.rest ?? undefined);
    else if (def.type === 'record') next = def.valueType;
    if (!next) return undefined;
    slot = slotOf(next);
    here = isObject(here) || Array.isArray(here) ? (here as Record<string, unknown>)[part] : undefined;
  }
  return slot && resolved(slot, here);
}

/** Schema types that say nothing of what lies inside them: any path may be there. */
const OPAQUE = new Set(['any', 'unknown', 'custom', 'pipe', 'transform', 'intersection']);

/**
 * Whether some answer the schema accepts can hold a field at `path` (any member of a union, any
 * index of a list); `undefined` when it cannot tell (no zod schema, or an opaque part on the way).
 */
export function declaresPath(schema: unknown, path: readonly string[]): boolean | undefined {
  if (!isZodNode(schema)) return undefined;
  return pathIn(slotOf(schema), path, 0);
}

function pathIn(slot: Slot, path: readonly string[], depth: number): boolean | undefined {
  if (path.length === 0) return true;
  // Bounded: a recursive (lazy) schema is followed no deeper than a path could go.
  if (depth > 64) return undefined;
  const def = slot.core._zod.def;
  if (OPAQUE.has(def.type)) return undefined;
  const [part, ...rest] = path as [string, ...string[]];
  const index = /^\d+$/.test(part);
  if (def.type === 'union') {
    let unsure = false;
    for (const option of def.options ?? []) {
      const found = pathIn(slotOf(option), path, depth + 1);
      if (found === true) return true;
      unsure ||= found === undefined;
    }
    return unsure ? undefined : false;
  }
  let next: ZodNode | undefined;
  if (def.type === 'object') next = def.shape && Object.hasOwn(def.shape, part) ? def.shape[part] : def.catchall;
  else if (def.type === 'array') next = index ? def.element : undefined;
  else if (def.type === 'tuple') next = index ? (def.items?.[Number(part)] ?? def.rest ?? undefined) : undefined;
  else if (def.type === 'record') next = def.valueType;
  // A strict object's catchall is `never`: no other key.
  return next && next._zod.def.type !== 'never' ? pathIn(slotOf(next), rest, depth + 1) : false;
}

/**
 * The members of the enum, literals or boolean the schema declares at `path` of `held` (dotted
 * path split: `['lines', '0', 'status']`), through optional, nullable and default wrappers;
 * `undefined` where it declares something else.
 */
export function membersAt(schema: unknown, held: unknown, path: readonly string[]): readonly unknown[] | undefined {
  if (!isZodNode(schema)) return undefined;
  const slot = slotAt(schema, held, path);
  return slot && membersOf(slot);
}

/** The bounds of the number the schema declares at `path` of `held`; `undefined` where it declares no number. */
export function rangeAt(schema: unknown, held: unknown, path: readonly string[]): NumberRange | undefined {
  if (!isZodNode(schema)) return undefined;
  const slot = slotAt(schema, held, path);
  if (!slot || typeOf(slot) !== 'number') return undefined;
  const { minValue, maxValue, isInt } = slot.core;
  return {
    min: typeof minValue === 'number' ? minValue : -Infinity,
    max: typeof maxValue === 'number' ? maxValue : Infinity,
    int: isInt === true,
  };
}

/**
 * The schema's empty value for `held`: a list is `[]`; anything else nullable is `null`; an
 * object keeps its fields but empties each list field, drops each optional one and nulls each
 * nullable one (its required fields that are not lists stay as held: the schema allows them no
 * emptier value). Where the schema has no emptier value than `held`, `held` itself.
 */
export function emptyValueOf(schema: unknown, held: unknown): unknown {
  if (!isZodNode(schema)) return held;
  return emptyIn(slotOf(schema), held);
}

function emptyIn(slot: Slot, held: unknown): unknown {
  if (typeOf(slot) === 'array') return [];
  if (slot.nullable) return null;
  const shape = resolved(slot, held);
  if (!shape) return held;
  if (shape !== slot) return emptyIn(shape, held);
  const fields = typeOf(shape) === 'object' ? shape.core._zod.def.shape : undefined;
  if (!fields || !isObject(held)) return held;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(held)) {
    const field = Object.hasOwn(fields, key) ? fields[key] : undefined;
    const f = field && slotOf(field);
    if (!f) out[key] = value;
    else if (typeOf(f) === 'array') out[key] = [];
    else if (f.optional) continue;
    else out[key] = f.nullable ? null : value;
  }
  return out;
}

const declared = new WeakMap<ZodNode, DeclaredOutput>();

/**
 * What a tool's declared output schema says of its answers, for `lieAbout`; `undefined` for no
 * schema, or one whose output is a transform's (no shape to draw from). One per schema, shared
 * by every trial and delivery: its structure is read once.
 */
export function declaredOutput(schema: unknown): DeclaredOutput | undefined {
  if (!isZodNode(schema)) return undefined;
  const known = declared.get(schema);
  if (known) return known;
  const core = slotOf(schema).core._zod.def;
  if (core.type === 'pipe' || core.type === 'transform') return undefined;
  const made: DeclaredOutput = {
    accepts: (value) => schema.safeParse(value).success,
    emptyOf: (held) => emptyValueOf(schema, held),
    membersAt: (held, path) => membersAt(schema, held, path),
    rangeAt: (held, path) => rangeAt(schema, held, path),
  };
  declared.set(schema, made);
  return made;
}
