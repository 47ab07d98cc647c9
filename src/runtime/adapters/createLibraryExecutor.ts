import { z } from 'zod';
import { CockatielConfigSchema, cockatielDriver } from './cockatiel.js';
import { LibraryExecutor, libraryRetries, type LibraryExecutorOptions } from './LibraryExecutor.js';
import { PRetryConfigSchema, pRetryDriver } from './pRetry.js';

/** A third-party retry library's configuration, told apart by `kind`. */
export const LibraryConfigSchema = z.discriminatedUnion('kind', [CockatielConfigSchema, PRetryConfigSchema]);
export type LibraryConfig = z.infer<typeof LibraryConfigSchema>;
export type LibraryKind = LibraryConfig['kind'];

/**
 * An execution layer for `config`: the library loaded (on first use), its policy built, the
 * attempts on faultline's wire. Breakers and other state live as long as the executor.
 *
 * @example
 * const executor = await createLibraryExecutor(PRetryConfigSchema.parse({ kind: 'p-retry', name: 'p', retries: 3 }),
 * { transport, clock, rng, history, ids });
 */
export async function createLibraryExecutor(
  config: LibraryConfig,
  options: Omit<LibraryExecutorOptions, 'driver' | 'timeoutMs' | 'retryOn'>,
): Promise<LibraryExecutor> {
  const retries = libraryRetries(config.retryOn);
  const driver =
    config.kind === 'cockatiel' ? await cockatielDriver(config, retries) : await pRetryDriver(config, retries);
  return new LibraryExecutor({
    ...options,
    driver,
    timeoutMs: config.timeoutMs,
    ...(config.retryOn !== undefined && { retryOn: config.retryOn }),
  });
}
