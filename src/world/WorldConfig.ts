import { z } from 'zod';
import { DEPLOY_OUTCOMES } from './services/deploy.js';

const serviceFields = {
  /** Honour idempotency keys (default `true`). */
  idempotency: z.boolean().optional(),
  /** How long keys are remembered, in virtual milliseconds (default 24 h). */
  retentionMs: z.number().int().positive().optional(),
  /** Virtual time between accepting a write and committing it (default 0). */
  processingMs: z.number().int().nonnegative().optional(),
};

export const ServiceConfigSchema = z.object(serviceFields).strict();

export const PaymentsConfigSchema = z
  .object({ ...serviceFields, maxAmountCents: z.number().int().positive().optional() })
  .strict();

export const DeployConfigSchema = z
  .object({
    ...serviceFields,
    startAfterMs: z.number().int().nonnegative().optional(),
    durationMs: z.number().int().nonnegative().optional(),
    outcome: z.enum(DEPLOY_OUTCOMES).optional(),
  })
  .strict();

/** Which built-in services a world has and how each behaves. Every field is optional. */
export const WorldConfigSchema = z
  .object({
    orders: ServiceConfigSchema.optional(),
    payments: PaymentsConfigSchema.optional(),
    email: ServiceConfigSchema.optional(),
    calendar: ServiceConfigSchema.optional(),
    deploy: DeployConfigSchema.optional(),
  })
  .strict();

export type WorldConfig = z.infer<typeof WorldConfigSchema>;
export type ServiceConfig = z.infer<typeof ServiceConfigSchema>;
export type PaymentsConfig = z.infer<typeof PaymentsConfigSchema>;
export type DeployConfig = z.infer<typeof DeployConfigSchema>;
