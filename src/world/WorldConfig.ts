import { z } from 'zod';
import { calendar } from './services/calendar.js';
import { deploy } from './services/deploy.js';
import { email } from './services/email.js';
import { jobs } from './services/jobs.js';
import { records } from './services/records.js';
import { orders } from './services/orders.js';
import { payments } from './services/payments.js';

/**
 * Options per service, keyed by service name: the built-ins' schemas are spelled out (so the
 * JSON Schema documents them); a user service's options are checked by its own schema when
 * the world is built.
 */
export const WorldConfigSchema = z
  .object({
    orders: orders.optionsSchema.optional(),
    payments: payments.optionsSchema.optional(),
    email: email.optionsSchema.optional(),
    calendar: calendar.optionsSchema.optional(),
    deploy: deploy.optionsSchema.optional(),
    records: records.optionsSchema.optional(),
    jobs: jobs.optionsSchema.optional(),
  })
  .catchall(z.record(z.string(), z.unknown()));

export type WorldConfig = Readonly<Record<string, unknown>>;
