// What a trial is held to: its budget, the goal it must reach, and how it must recover after a heal.
import { z } from 'zod';
import { AGENT_OUTCOMES } from '../core/index.js';

/** The limits the execution layer enforces per agent (R8, R11). */
export const BudgetSchema = z
  .object({
    maxTurns: z.number().int().positive().default(20),
    maxToolCalls: z.number().int().positive().default(20),
    maxAttemptsPerCall: z.number().int().positive().default(3),
    /** Virtual milliseconds from the trial start. */
    deadlineMs: z.number().positive().default(300_000),
    /** Deliveries to services per logical operation, all retry layers together (R10); unlimited when absent. */
    maxDeliveriesPerOperation: z.number().int().positive().optional(),
  })
  .strict();

export const GoalSchema = z
  .object({
    state: z.record(z.string(), z.unknown()).optional(),
    effects: z.record(z.string(), z.number().int().nonnegative()).optional(),
    outcome: z.array(z.enum(AGENT_OUTCOMES)).min(1).optional(),
  })
  .strict();

/** What the `recovery` checker judges once the faults heal (see `RecoveryExpectation` in checks/record.ts). */
export const RecoverySchema = z
  .object({
    /** Virtual ms from the heal by which the goal must be reached. */
    withinMs: z.number().nonnegative().finite(),
    /** The most logical tool calls the agents may start at or after the heal (status queries excluded). */
    maxCallsAfter: z.number().int().nonnegative().optional(),
    /** The longest an agent running at the heal may wait, after it, before its next request or its end (default: `withinMs`). */
    maxStaleWaitMs: z.number().nonnegative().finite().optional(),
  })
  .strict();
