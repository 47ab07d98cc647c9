import { z } from 'zod';
import { defineService } from '../define/defineService.js';

export const ProcessJobInput = z.object({ jobId: z.string().min(1) }).strict();
export type ProcessJobInput = z.infer<typeof ProcessJobInput>;

export const JobsOptionsSchema = z
  .object({
    /** Virtual time one job takes (and holds a slot, when the service has `capacity`). */
    serviceTimeMs: z.number().nonnegative().default(50),
  })
  .strict();
export type JobsOptions = z.infer<typeof JobsOptionsSchema>;

/** The jobs service's state: when each job was last processed, and how many times jobs were processed. */
export interface JobsState {
  readonly jobs: Record<string, number>;
  processed: number;
}

/**
 * A job service: `process_job` works for `serviceTimeMs` and stores the job's result under its
 * id. Storing a result twice is harmless (an idempotent write), but it is work done twice: the
 * ledger shows it as a duplicate. Give it `capacity` to see overload emerge from the load.
 * Not in the default world: name it in a scenario's `services`.
 */
export const jobs = defineService({
  name: 'jobs',
  description: 'Processes jobs, each taking serviceTimeMs; with capacity, overload answers 429 or 503.',
  options: JobsOptionsSchema,
  state: (): JobsState => ({ jobs: {}, processed: 0 }),
  tools: {
    process_job: {
      description: 'Process one job and store its result under the job id.',
      risk: 'idempotent-write',
      input: ProcessJobInput,
      businessKey: 'jobId',
      idempotency: false,
      status: false,
      async run(input, ctx) {
        if (ctx.options.serviceTimeMs > 0) await ctx.clock.sleep(ctx.options.serviceTimeMs);
        const processedAt = ctx.now();
        ctx.state.jobs[input.jobId] = processedAt;
        ctx.state.processed++;
        ctx.effect('job.processed', { key: input.jobId, data: { processedAt } });
        return { jobId: input.jobId, processedAt };
      },
    },
  },
});
