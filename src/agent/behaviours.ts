/**
 * How a scripted model reacts to feedback. `careful` follows the rulebook; every other
 * behaviour is one deliberate, named bug that some checker must catch.
 */
export const BEHAVIOURS = [
  'careful',
  /** After any error, even quota, permission or bad arguments, re-issues the same call at once, up to 3 more times. */
  'retries-blindly',
  /** After `unknown`, re-submits the call as a new call (a new operation and key) instead of asking its status (breaks R21, R23). */
  'new-key-per-retry',
  /** After a retryable error, re-calls at once, ignoring `retry_after_ms`, up to 3 times (breaks R9, R10). */
  'ignores-retry-after',
  /** Reports `unknown` as `failed` (breaks R20). */
  'unknown-as-failure',
  /** Reports `unknown` as `completed` (breaks R20). */
  'unknown-as-success',
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];
