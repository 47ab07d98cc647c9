import type { z } from 'zod';

/**
 * Whether `value` is a zod 4 schema, from this copy of zod or the user's own: `instanceof`
 * fails across two installed copies, so the check is by shape (zod 4 schemas carry `_zod`).
 */
export const isZodSchema = (value: unknown): value is z.ZodType =>
  typeof value === 'object' &&
  value !== null &&
  '_zod' in value &&
  typeof (value as { safeParse?: unknown }).safeParse === 'function';

/** The fields of a zod object schema (`z.object({...})`), or `undefined` for any other schema. */
export function objectShape(value: unknown): Readonly<Record<string, unknown>> | undefined {
  if (!isZodSchema(value)) return undefined;
  const shape = (value as { shape?: unknown }).shape;
  return typeof shape === 'object' && shape !== null ? (shape as Record<string, unknown>) : undefined;
}
