import { z } from 'zod';
import type { Clock } from '../../core/index.js';
import type { ToolSpec } from '../tool.js';
import { AdmissionControl } from './AdmissionControl.js';
import type { CapacityConfig } from './CapacityConfig.js';
import type { ContentionService } from './ContentionService.js';

export interface JobsOptions {
  /** Virtual time one job holds a slot. */
  readonly serviceTimeMs: number;
  readonly capacity: CapacityConfig;
}

const JobInput = z.object({ jobId: z.string().min(1) }).strict();

/**
 * A job service with finite capacity: `process_job` takes a slot for `serviceTimeMs` and
 * commits `job.processed` under the job id. Storing a job's result twice is harmless (an
 * idempotent write), but it is work done twice: the ledger shows it as a duplicate.
 */
export function jobsService(options: JobsOptions, clock: Clock): ContentionService {
  const door = new AdmissionControl(options.capacity, clock);
  let processed = 0;
  const processJob: ToolSpec<z.infer<typeof JobInput>, { jobId: string; processedAt: number }> = {
    name: 'process_job',
    description: 'Processes one job and stores its result under the job id.',
    risk: 'idempotent-write',
    input: JobInput,
    honoursIdempotencyKeys: false,
    canQueryStatus: false,
    businessKeyField: 'jobId',
    async run(input, ctx) {
      const admission = await door.enter();
      if (admission.kind === 'refused') throw admission.error;
      try {
        await ctx.clock.sleep(options.serviceTimeMs);
        processed++;
        ctx.world.ledger.commit({
          at: ctx.clock.now(),
          service: 'jobs',
          effect: 'job.processed',
          key: input.jobId,
          request: ctx.request,
          ...(ctx.idempotencyKey === undefined ? {} : { idempotencyKey: ctx.idempotencyKey }),
          data: { queuedMs: admission.queuedMs },
        });
        return { jobId: input.jobId, processedAt: ctx.clock.now() };
      } finally {
        admission.release();
      }
    },
  };
  return {
    name: 'jobs',
    tools: [processJob as ToolSpec],
    tool: processJob.name,
    inputFor: (agent, op) => ({ jobId: `a${agent}-op${op}` }),
    keyFor: (agent, op) => `a${agent}-op${op}`,
    get admission() {
      return door.stats;
    },
    snapshot: () => ({ processed, admission: door.stats }),
  };
}
