import { z } from 'zod';
import { defineService } from '../define/defineService.js';
import { ServiceError } from '../define/ServiceError.js';

export const UpdateRecordInput = z
  .object({
    record: z.string().min(1),
    /** The writer's business id for this write: the ledger files its effect under it. */
    writer: z.string().min(1),
    value: z.number(),
  })
  .strict();
export type UpdateRecordInput = z.infer<typeof UpdateRecordInput>;

export const ReadRecordInput = z.object({ record: z.string().min(1) }).strict();
export type ReadRecordInput = z.infer<typeof ReadRecordInput>;

export const RecordsOptionsSchema = z
  .object({
    /** Virtual time between a write's read of the version and its commit: the window a rival write can land in. */
    transactionMs: z.number().nonnegative().default(10),
  })
  .strict();
export type RecordsOptions = z.infer<typeof RecordsOptionsSchema>;

/** The records service's state: each record's version and value, and what happened to the writes. */
export interface RecordsState {
  readonly records: Record<string, { version: number; value: number }>;
  commits: number;
  conflicts: number;
}

/**
 * Shared records under optimistic concurrency control: `update_record` reads the record's
 * version, sends it back, works for `transactionMs`, sends its write, and commits only if the
 * version it read is still current (with a scenario `network`, the legs between take time);
 * otherwise it answers 409 and changes nothing. Many agents writing one record at once collide,
 * and how they retry decides how long they all take (AWS's "Exponential Backoff And Jitter").
 * Not in the default world: name it in a scenario's `services`.
 */
export const records = defineService({
  name: 'records',
  description:
    'Shared records under optimistic concurrency: a write commits only if no other write landed since it read.',
  options: RecordsOptionsSchema,
  state: (): RecordsState => ({ records: {}, commits: 0, conflicts: 0 }),
  tools: {
    update_record: {
      description:
        'Set a shared record, if no other write committed since this one read it; a conflict answers 409 and changes nothing.',
      // Setting a value is idempotent; the version check is what makes a late duplicate harmless.
      risk: 'idempotent-write',
      input: UpdateRecordInput,
      businessKey: 'writer',
      idempotency: false,
      status: false,
      async run(input, ctx) {
        const read = ctx.state.records[input.record]?.version ?? 0;
        // The read's answer goes back and the write comes in over the network (the scenario's
        // `network` legs; nothing without one): a rival write can land in between.
        await ctx.travel('response');
        if (ctx.options.transactionMs > 0) await ctx.clock.sleep(ctx.options.transactionMs);
        await ctx.travel('request');
        const current = ctx.state.records[input.record]?.version ?? 0;
        if (current !== read) {
          ctx.state.conflicts++;
          throw versionConflict(
            `version conflict: ${input.record} is at version ${current}, this write read version ${read}`,
          );
        }
        const version = read + 1;
        ctx.state.records[input.record] = { version, value: input.value };
        ctx.state.commits++;
        ctx.effect('record.updated', {
          key: input.writer,
          data: { record: input.record, version, value: input.value },
        });
        return { record: input.record, version };
      },
    },
    read_record: {
      description: "Read a record's version and value (version 0: never written).",
      risk: 'read',
      input: ReadRecordInput,
      run: (input, ctx) => ({
        record: input.record,
        ...(ctx.state.records[input.record] ?? { version: 0, value: null }),
      }),
    },
  },
});

/**
 * The 409 of a write that lost the race, without a stack: a crowd meets thousands of conflicts per trial and nobody
 * prints their stacks. `stackless` does the same, but its thunk cost a closure and its context per conflict.
 */
function versionConflict(message: string): ServiceError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new ServiceError(409, { code: 'version_conflict', type: 'conflict', message });
  } finally {
    Error.stackTraceLimit = limit;
  }
}
