import { z } from 'zod';
import { FaultSchema } from './fault.js';

const OneOrMany = <T extends z.ZodType>(t: T) => z.union([t, z.array(t).min(1)]);

/**
 * Which deliveries a rule hits. Every given field must match; an empty match hits all.
 * `call` counts logical calls per tool (1 = the first call of that tool in the trial);
 * `attempt` counts attempts within one call (1 = the first).
 */
export const FaultMatchSchema = z
  .object({
    tool: OneOrMany(z.string().min(1)).optional(),
    /** Which requests: the call's own attempts (the default), the execution layer's status queries, or both. */
    purpose: z.enum(['call', 'status', 'any']).optional(),
    call: OneOrMany(z.number().int().positive()).optional(),
    attempt: OneOrMany(z.number().int().positive()).optional(),
    /** Virtual milliseconds since the trial began: [from, to). */
    from: z.number().nonnegative().optional(),
    to: z.number().nonnegative().optional(),
    /** Drawn from the trial's rng, so it replays exactly. */
    probability: z.number().min(0).max(1).optional(),
  })
  .strict()
  // An empty window would silently never match: almost certainly a typo in the plan.
  .refine((m) => m.from === undefined || m.to === undefined || m.from < m.to, {
    message: '`to` must be later than `from` (the window is [from, to))',
    path: ['to'],
  });

export const FaultRuleSchema = z
  .object({
    match: FaultMatchSchema.default({}),
    fault: FaultSchema,
    /** Stop applying after this many hits (default: no limit). */
    times: z.number().int().positive().optional(),
    /**
     * `fires` (the default): a cell in whose trials the rule never fired is not exercised, and
     * fails the gates. `may-not-fire`: a rule that may rightly stay silent (a probability sweep).
     */
    expect: z.enum(['fires', 'may-not-fire']).optional(),
  })
  .strict();

/** Rules are tried in order; the first that matches a delivery applies. */
export const FaultPlanSchema = z.array(FaultRuleSchema);

export type FaultMatch = z.infer<typeof FaultMatchSchema>;
export type FaultRule = z.infer<typeof FaultRuleSchema>;
export type FaultPlan = z.infer<typeof FaultPlanSchema>;

/**
 * When the faults end: from `atMs` virtual ms after the trial began, no rule of the plan matches
 * (every transport: the in-process wire, msw, nock, the served world). The world is left as it is:
 * a service's declared capacity still holds, so an overload that outlives its trigger still shows.
 */
export const HealSchema = z
  .object({
    atMs: z.number().nonnegative().finite(),
  })
  .strict();
export type Heal = z.infer<typeof HealSchema>;
