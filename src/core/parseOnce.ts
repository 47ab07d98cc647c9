import type { z } from 'zod';

const parsed = new WeakMap<z.ZodType, WeakMap<object, unknown>>();

/**
 * `schema.safeParse(value)`, remembered per schema and input object: a scenario's plan is the
 * same object in every one of its trials, and parsing it again per trial (zod on the hot path)
 * cost as much as a checker (bench/README.md). Only successes are kept, and only for objects;
 * the output is frozen, so a trial that tried to change its shared copy would throw rather than
 * leak into the next one. An input must not be changed after it was parsed (faultline's own
 * scenarios are not).
 */
export function safeParseOnce<S extends z.ZodType>(schema: S, value: unknown): z.ZodSafeParseResult<z.output<S>> {
  if (typeof value !== 'object' || value === null) return schema.safeParse(value);
  let bySchema = parsed.get(schema);
  const hit = bySchema?.get(value);
  if (hit !== undefined) return { success: true, data: hit as z.output<S> };
  const result = schema.safeParse(value);
  if (result.success) {
    if (!bySchema) parsed.set(schema, (bySchema = new WeakMap()));
    bySchema.set(value, deepFreeze(result.data));
  }
  return result;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
