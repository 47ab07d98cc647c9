import type * as CockatielModule from 'cockatiel';
import type { GeneratorFn, IBackoffFactory } from 'cockatiel';
import { z } from 'zod';
import { TRANSIENT_KINDS } from '../../core/index.js';
import { AttemptFailed } from './AttemptFailed.js';
import { libraryCommon } from './libraryConfig.js';
import type { RetryDriver } from './RetryDriver.js';

/**
 * "cockatiel's retry policy with these options", as data. Field names are cockatiel's:
 * `maxAttempts` counts retries after the first attempt; `backoff` is its
 * `ExponentialBackoff` (with one of its generators) or `ConstantBackoff`; `circuitBreaker`
 * wraps a `ConsecutiveBreaker` inside the retries (`wrap(retry, breaker)`).
 */
export const CockatielConfigSchema = z
  .object({
    kind: z.literal('cockatiel'),
    ...libraryCommon,
    maxAttempts: z.number().int().nonnegative().default(3),
    backoff: z
      .discriminatedUnion('kind', [
        z
          .object({
            kind: z.literal('exponential'),
            initialDelay: z.number().nonnegative().default(128),
            maxDelay: z.number().nonnegative().default(30_000),
            exponent: z.number().min(1).default(2),
            /** cockatiel's generators: decorrelated (its default), full, half (equal) jitter, or none. */
            generator: z.enum(['decorrelated', 'full', 'half', 'none']).default('decorrelated'),
          })
          .strict(),
        z.object({ kind: z.literal('constant'), delay: z.number().nonnegative() }).strict(),
      ])
      .default({ kind: 'exponential', initialDelay: 128, maxDelay: 30_000, exponent: 2, generator: 'decorrelated' }),
    circuitBreaker: z
      .object({ halfOpenAfter: z.number().positive(), consecutiveFailures: z.number().int().positive() })
      .strict()
      .nullable()
      .default(null),
  })
  .strict();
export type CockatielConfig = z.infer<typeof CockatielConfigSchema>;

type Cockatiel = typeof CockatielModule;
let loaded: Promise<Cockatiel> | undefined;
/** Loaded on first use: only configurations that name cockatiel need it installed. */
const loadCockatiel = (): Promise<Cockatiel> => (loaded ??= import('cockatiel'));

/**
 * A driver running each call through a cockatiel retry policy. The breaker (if any) lives as
 * long as the driver, as a client process holds one. cockatiel reads `setTimeout`,
 * `Date.now` and `Math.random`: run it under `installVirtualTimers(clock, { mode: 'library', random })`
 * to keep it on the trial's clock and seed.
 */
export async function cockatielDriver(
  config: CockatielConfig,
  retries: (error: unknown) => boolean,
): Promise<RetryDriver> {
  const c = await loadCockatiel();
  const b = config.backoff;
  const exponential = <S>(generator: GeneratorFn<S>): IBackoffFactory<unknown> =>
    new c.ExponentialBackoff<S>({
      ...(b.kind === 'exponential' && { initialDelay: b.initialDelay, maxDelay: b.maxDelay, exponent: b.exponent }),
      generator,
    });
  const backoff =
    b.kind === 'constant'
      ? new c.ConstantBackoff(b.delay)
      : b.generator === 'decorrelated'
        ? exponential(c.decorrelatedJitterGenerator)
        : exponential(
            { full: c.fullJitterGenerator, half: c.halfJitterGenerator, none: c.noJitterGenerator }[b.generator],
          );
  const serviceTrouble = (e: Error): boolean => e instanceof AttemptFailed && TRANSIENT_KINDS.includes(e.error.kind);
  const breaker = config.circuitBreaker
    ? c.circuitBreaker(c.handleWhen(serviceTrouble), {
        halfOpenAfter: config.circuitBreaker.halfOpenAfter,
        breaker: new c.ConsecutiveBreaker(config.circuitBreaker.consecutiveFailures),
      })
    : undefined;
  return {
    library: 'cockatiel',
    async execute(attempt, hooks) {
      // A policy per call, so its onRetry listener reports to this call only.
      const retry = c.retry(c.handleWhen(retries), { maxAttempts: config.maxAttempts, backoff });
      const listener = retry.onRetry((e) => hooks.onWait?.(e.delay));
      try {
        const policy = breaker ? c.wrap(retry, breaker) : retry;
        return await policy.execute(({ signal }) => attempt(signal));
      } finally {
        listener.dispose();
      }
    },
  };
}
