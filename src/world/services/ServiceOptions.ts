import type { IdempotencyConfig } from '../idempotency.js';
import { DEFAULT_RETENTION_MS } from '../idempotency.js';
import type { CapacityConfig } from '../capacity/CapacityConfig.js';

/** What every built-in service accepts; `undefined` means the default, so parsed configs pass straight in. */
export interface ServiceOptions {
  /** Honour idempotency keys (default `true`). */
  readonly idempotency?: boolean | undefined;
  /** How long keys are remembered, in virtual milliseconds (default 24 h). */
  readonly retentionMs?: number | undefined;
  /** Virtual time between accepting a write and committing it (default 0). */
  readonly processingMs?: number | undefined;
  /** Finite capacity for every delivery (default: unlimited). */
  readonly capacity?: CapacityConfig | undefined;
}

export const idempotencyConfigOf = (options: ServiceOptions): IdempotencyConfig => ({
  enabled: options.idempotency ?? true,
  retentionMs: options.retentionMs ?? DEFAULT_RETENTION_MS,
});
