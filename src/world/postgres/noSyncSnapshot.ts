import { FaultlineError, FaultlineErrorCode } from '../../core/index.js';

/** What a Postgres service's `snapshot()` throws: its state can only be read asynchronously. */
export function noSyncSnapshot(service: string): FaultlineError {
  return new FaultlineError(
    FaultlineErrorCode.Internal,
    `the Postgres ${service} service has no synchronous snapshot: use World.snapshotAsync()`,
  );
}
