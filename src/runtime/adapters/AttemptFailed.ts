import type { ErrorData } from '../../core/index.js';

/**
 * What an attempt throws into a third-party retry library: the classified error, so the
 * library's retry filter can decide on its kind, and the raw one a real client threw.
 */
export class AttemptFailed extends Error {
  override readonly name = 'AttemptFailed';
  constructor(
    readonly error: ErrorData,
    readonly raw: unknown,
  ) {
    // No stack: it would only point into the adapter, and a crowd of clients throws thousands.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(error.message);
    Error.stackTraceLimit = limit;
  }
}
