import type { ErrorData, GiveUpReason } from '../core/index.js';

/** Stops that spend the task's budget: the model must not be told a retry could still help (R8, R9, R28). */
export const BUDGET_STOPS: ReadonlySet<GiveUpReason> = new Set<GiveUpReason>([
  'deadline',
  'retry_after_exceeds_deadline',
  'budget',
  'client_budget',
  'client_throttled',
]);

const BUDGET_STOP_TEXT: Readonly<Partial<Record<GiveUpReason, string>>> = {
  deadline: 'the next attempt would pass the task deadline',
  retry_after_exceeds_deadline: "the server's Retry-After wait would pass the task deadline",
  budget: "the task's retry budget is spent",
  client_budget: "the client's retry budget (its retry quota or retry ratio) is spent",
  client_throttled:
    "the client's adaptive throttling rejected it without sending, as the service has accepted too little of late",
};

/** `error`, marked not retryable, its message saying which budget stopped the call. */
export function budgetSpent(error: ErrorData, reason: GiveUpReason): ErrorData {
  return {
    ...error,
    retryable: false,
    message: `${error.message.replace(/[.\s]+$/, '')}; not retried: ${BUDGET_STOP_TEXT[reason] ?? reason}`,
  };
}
