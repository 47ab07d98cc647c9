/**
 * The error code a trial's agent run carries when the model provider itself failed (its own 429,
 * 5xx, timeout or dropped connection, after faultline's retries): the trial ends `infra_error`,
 * not judged. A module of its own so that `trial.ts` can read it without loading the http-agent path.
 */
export const INFRA_ERROR_CODE = 'FAULTLINE_INFRA_ERROR';
