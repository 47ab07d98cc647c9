import { z } from 'zod';
import { FaultlineError, FaultlineErrorCode } from '../../core/index.js';
import { ContentionServiceSchema } from '../../world/contention/ContentionServiceConfig.js';
import { formatIssues } from '../../core/zodIssues.js';

/** When the agents start: all at once (a thundering herd) or spread at random over a window. */
export const ArrivalSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('burst') }).strict(),
  z.object({ kind: z.literal('uniform'), overMs: z.number().positive() }).strict(),
]);
export type Arrival = z.infer<typeof ArrivalSchema>;

/**
 * Many agents sharing one service in one trial, on one virtual clock: the situation where
 * retry storms, thundering herds and amplification appear (and a single agent never shows them).
 */
export const ContentionScenarioSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and dashes'),
    title: z.string().default(''),
    description: z.string().default(''),
    /** Concurrent agents (clients), each with its own execution layer. */
    agents: z.number().int().positive().max(100_000).default(100),
    /** Logical calls each agent makes, one after the other. */
    callsPerAgent: z.number().int().positive().default(1),
    /** Virtual pause between an agent's calls. */
    thinkTimeMs: z.number().nonnegative().default(0),
    arrival: ArrivalSchema.default({ kind: 'burst' }),
    service: ContentionServiceSchema,
    budget: z
      .object({
        /** Deliveries one logical call may cause, every layer included (R10); more is flagged as amplification. */
        maxDeliveriesPerCall: z.number().int().positive().default(10),
        /** Virtual time an agent may take from its start; `null` for no limit. */
        deadlineMs: z.number().positive().nullable().default(null),
      })
      .strict()
      .default({ maxDeliveriesPerCall: 10, deadlineMs: null }),
    /** The trial stops here whatever is still running; unfinished agents count as failed. */
    maxVirtualMs: z.number().positive().default(3_600_000),
    /** pass^k is reported for k = 1..maxK. */
    maxK: z.number().int().positive().default(8),
  })
  .strict();
export type ContentionScenario = z.infer<typeof ContentionScenarioSchema>;
export type ContentionScenarioInput = z.input<typeof ContentionScenarioSchema>;

/** @throws FaultlineError `FAULTLINE_SCENARIO_INVALID`, naming `source`, the path and what was expected. */
export function parseContentionScenario(value: unknown, source = 'contention scenario'): ContentionScenario {
  const parsed = ContentionScenarioSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const lines = formatIssues(parsed.error.issues);
  throw new FaultlineError(FaultlineErrorCode.ScenarioInvalid, `${source}: invalid contention scenario:\n${lines.map((l) => `  - ${l}`).join('\n')}`, { source, issues: lines });
}
