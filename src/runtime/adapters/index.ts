export { AttemptFailed } from './AttemptFailed.js';
export { CockatielConfigSchema, cockatielDriver, type CockatielConfig } from './cockatiel.js';
export { PRetryConfigSchema, pRetryDriver, type PRetryConfig } from './pRetry.js';
export { LibraryExecutor, libraryRetries, type LibraryExecutorOptions } from './LibraryExecutor.js';
export {
  LibraryConfigSchema,
  createLibraryExecutor,
  type LibraryConfig,
  type LibraryKind,
} from './createLibraryExecutor.js';
export type { AttemptFn, RetryDriver, RetryDriverHooks } from './RetryDriver.js';
