import type * as PRetryModule from 'p-retry';
import { z } from 'zod';
import { libraryCommon } from './libraryConfig.js';
import type { RetryDriver } from './RetryDriver.js';

/**
 * "p-retry with these options", as data. Field names are p-retry's: `retries` after the first
 * attempt, a delay of `minTimeout * factor^n` (times a random 1..2 under `randomize`) capped
 * at `maxTimeout`, and `maxRetryTime` for the whole call. `null` stands for its `Infinity`.
 */
export const PRetryConfigSchema = z
  .object({
    kind: z.literal('p-retry'),
    ...libraryCommon,
    retries: z.number().int().nonnegative().default(10),
    factor: z.number().positive().default(2),
    minTimeout: z.number().nonnegative().default(1_000),
    maxTimeout: z.number().nonnegative().nullable().default(null),
    randomize: z.boolean().default(false),
    maxRetryTime: z.number().nonnegative().nullable().default(null),
  })
  .strict();
export type PRetryConfig = z.infer<typeof PRetryConfigSchema>;

type PRetry = typeof PRetryModule;
let loaded: Promise<PRetry> | undefined;
/** Loaded on first use: only configurations that name p-retry need it installed. */
const loadPRetry = (): Promise<PRetry> => (loaded ??= import('p-retry'));

/**
 * A driver running each call through `pRetry`. p-retry reads `setTimeout`, `performance.now`
 * and `Math.random`: run it under `installVirtualTimers(clock, { mode: 'library', random })`.
 * It does not say how long it waits, so no `retry_wait` is recorded; the attempts' times show it.
 */
export async function pRetryDriver(config: PRetryConfig, retries: (error: unknown) => boolean): Promise<RetryDriver> {
  const { default: pRetry } = await loadPRetry();
  return {
    library: 'p-retry',
    execute(attempt) {
      return pRetry(() => attempt(), {
        retries: config.retries,
        factor: config.factor,
        minTimeout: config.minTimeout,
        maxTimeout: config.maxTimeout ?? Number.POSITIVE_INFINITY,
        randomize: config.randomize,
        maxRetryTime: config.maxRetryTime ?? Number.POSITIVE_INFINITY,
        shouldRetry: ({ error }) => retries(error),
      });
    },
  };
}
