/** Stable codes for errors of the harness itself (not of the tools under test). */
export const FaultlineErrorCode = {
  ScenarioInvalid: 'FAULTLINE_SCENARIO_INVALID',
  ConfigInvalid: 'FAULTLINE_CONFIG_INVALID',
  PlanInvalid: 'FAULTLINE_PLAN_INVALID',
  UnknownTool: 'FAULTLINE_UNKNOWN_TOOL',
  UnknownService: 'FAULTLINE_UNKNOWN_SERVICE',
  /** A `defineService` definition, or a service module, that cannot be used. */
  ServiceInvalid: 'FAULTLINE_SERVICE_INVALID',
  NotFound: 'FAULTLINE_NOT_FOUND',
  Usage: 'FAULTLINE_USAGE',
  /** Neither a Docker daemon nor `DATABASE_URL`: no Postgres to run against. */
  PostgresUnavailable: 'FAULTLINE_POSTGRES_UNAVAILABLE',
  Internal: 'FAULTLINE_INTERNAL',
} as const;
export type FaultlineErrorCode = (typeof FaultlineErrorCode)[keyof typeof FaultlineErrorCode];

const kFaultlineError = Symbol.for('faultline.FaultlineError');

export class FaultlineError extends Error {
  override readonly name = 'FaultlineError';
  /** A brand that survives a second copy of faultline in one process (see `isFaultlineError`). */
  readonly [kFaultlineError] = true;
  constructor(
    readonly code: FaultlineErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** Whether `e` is a `FaultlineError` from this copy of faultline or another one loaded beside it (a user's module). */
export const isFaultlineError = (e: unknown): e is FaultlineError =>
  e instanceof FaultlineError ||
  (e instanceof Error && (e as { [kFaultlineError]?: unknown })[kFaultlineError] === true);
