import { z } from 'zod';
import type { Clock } from '../../core/index.js';
import { CapacitySchema } from './CapacityConfig.js';
import type { ContentionService } from './ContentionService.js';
import { jobsService } from './jobsService.js';
import { optimisticService } from './optimisticService.js';

/** The service of a contention trial, as data. */
export const ContentionServiceSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('optimistic'),
      records: z.number().int().positive().default(1),
      transactionMs: z.number().positive().default(10),
      capacity: CapacitySchema.default(CapacitySchema.parse({})),
    })
    .strict(),
  z
    .object({
      kind: z.literal('jobs'),
      serviceTimeMs: z.number().positive().default(50),
      capacity: CapacitySchema.default(CapacitySchema.parse({})),
    })
    .strict(),
]);
export type ContentionServiceConfig = z.infer<typeof ContentionServiceSchema>;
export type ContentionServiceKind = ContentionServiceConfig['kind'];

/** A fresh service for one trial. */
export function createContentionService(config: ContentionServiceConfig, clock: Clock): ContentionService {
  switch (config.kind) {
    case 'optimistic':
      return optimisticService(config, clock);
    case 'jobs':
      return jobsService(config, clock);
  }
}
