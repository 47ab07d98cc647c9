import { z } from 'zod';
import { formatIssues } from '../../core/zodIssues.js';
import { copyJsonTree, NOT_JSON } from './copyJsonTree.js';
import { objectShape } from './zodLike.js';
import { CapacitySchema } from '../capacity/CapacityConfig.js';

/** The options every service accepts in a scenario's `world.<service>` (R24). */
export const CommonServiceOptionsSchema = z
  .object({
    /** Honour idempotency keys (default `true`). */
    idempotency: z.boolean().optional(),
    /** How long keys are remembered, in virtual milliseconds (default 24 h). */
    retentionMs: z.number().int().positive().optional(),
    /** Virtual time between accepting a write and committing it (default 0). */
    processingMs: z.number().int().nonnegative().optional(),
    /**
     * Finite capacity, applied to every delivery of every tool: a token-bucket rate limit
     * (429 with Retry-After) and a bounded number of requests in progress with a queue in
     * front (503, or 429, when both are full). Absent: unlimited.
     */
    capacity: CapacitySchema.optional(),
  })
  .strict();
export type CommonServiceOptions = z.infer<typeof CommonServiceOptionsSchema>;

const COMMON_KEYS = Object.keys(CommonServiceOptionsSchema.shape);

/** A parse of one service's options: the value with defaults filled, or one line per problem. */
export type OptionsParse<O> =
  | { readonly ok: true; readonly value: O & CommonServiceOptions }
  | { readonly ok: false; readonly issues: readonly string[] };
export type OptionsParseKind = OptionsParse<unknown>['ok'];

/**
 * How a service's options are parsed: the common fields by faultline's schema, the rest by the
 * service's own (which may come from the user's copy of zod, so the two are never merged into
 * one schema), and any key neither knows is refused, so a typo cannot pass silently.
 */
export function parseOptions<O>(own: z.ZodType | undefined): (value: unknown) => OptionsParse<O> {
  const parse = parseOptionsAfresh<O>(own);
  // Per input object, the options it parsed to: a scenario's `world.<name>` is the same object in
  // every trial, and zod on it per trial cost a world more than its state. Each trial gets its own
  // copy (a tool may change `ctx.options`); options that are not JSON data are parsed every time.
  const parsedFrom = new WeakMap<object, O & CommonServiceOptions>();
  let parsedFromNothing: (O & CommonServiceOptions) | undefined;
  return (value) => {
    const nothing = value === undefined || value === null;
    if (!nothing && typeof value !== 'object') return parse(value);
    const kept = nothing ? parsedFromNothing : parsedFrom.get(value);
    if (kept !== undefined) return { ok: true, value: copyJsonTree(kept) as O & CommonServiceOptions };
    const parsed = parse(value);
    const copy = parsed.ok ? copyJsonTree(parsed.value) : NOT_JSON;
    if (copy !== NOT_JSON) {
      if (nothing) parsedFromNothing = copy;
      else parsedFrom.set(value, copy);
    }
    return parsed;
  };
}

function parseOptionsAfresh<O>(own: z.ZodType | undefined): (value: unknown) => OptionsParse<O> {
  const ownKeys = Object.keys(objectShape(own) ?? {});
  return (value) => {
    const input = value ?? {};
    if (typeof input !== 'object' || Array.isArray(input))
      return {
        ok: false,
        issues: [`(root): expected an object of options, got ${Array.isArray(input) ? 'an array' : typeof input}`],
      };
    const record = input as Record<string, unknown>;
    const pick = (keys: readonly string[]): Record<string, unknown> =>
      Object.fromEntries(Object.entries(record).filter(([k]) => keys.includes(k)));
    const unknown = Object.keys(record).filter((k) => !COMMON_KEYS.includes(k) && !ownKeys.includes(k));
    const issues: string[] = unknown.map(
      (k) => `${k}: unknown option (known: ${[...COMMON_KEYS, ...ownKeys].join(', ')})`,
    );
    const common = CommonServiceOptionsSchema.safeParse(pick(COMMON_KEYS));
    if (!common.success) issues.push(...formatIssues(common.error.issues));
    const mine = own?.safeParse(pick(ownKeys));
    if (mine && !mine.success) issues.push(...formatIssues(mine.error.issues));
    if (issues.length > 0 || !common.success) return { ok: false, issues };
    return { ok: true, value: { ...(mine?.data as O), ...common.data } };
  };
}

/** One schema for documentation (the JSON Schema of built-in services): the service's fields beside the common ones. */
export function describeOptions(own: z.ZodType | undefined): z.ZodType {
  const shape = objectShape(own);
  if (!shape) return CommonServiceOptionsSchema;
  try {
    return CommonServiceOptionsSchema.extend(shape as z.ZodRawShape).strict();
  } catch {
    // A schema from another copy of zod cannot join ours; the common fields still document themselves.
    return CommonServiceOptionsSchema.loose();
  }
}
