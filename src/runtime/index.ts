export { Executor, type ExecutorOptions } from './Executor.js';
export type { ToolExecutor, CallOptions } from './ToolExecutor.js';
export type { ToolResult, ToolResultKind, ToolErrorFeedback, UnknownResult, NextAction } from './result.js';
export {
  RetryConfigSchema,
  BackoffSchema,
  rulebookDefault,
  type RetryConfig,
  type RetryConfigInput,
  type Backoff,
} from './config.js';
export { classifyError, CODE_KINDS, NAME_KINDS, STATUS_KINDS, BODY_CODE_KINDS, MESSAGE_PATTERNS } from './classify.js';
export { isUncertain } from './uncertain.js';
export { fieldErrors } from './fieldErrors.js';
export { unknownResult } from './unknownResult.js';
export { sendAttempt, type AttemptResult, type AttemptResultKind } from './sendAttempt.js';
export {
  QUERY_OPERATION_STATUS,
  QueryOperationStatusInputSchema,
  queryOperationStatusTool,
} from './queryOperationStatusTool.js';
export { parseRetryAfter, parseHttpDate } from '../core/retryAfter.js';
export { backoffDelay } from './retry/backoff.js';
export { RetryBudget } from './retry/RetryBudget.js';
export { Deadline } from './retry/Deadline.js';
export {
  decideRetry,
  kindMayRetry,
  type RetryDecision,
  type RetryDecisionKind,
  type RetryContext,
} from './retry/decideRetry.js';
export type { OperationRecord, OperationRecordState, OperationPatch } from './idempotency/OperationRecord.js';
export type { OperationStore, OperationKey, OperationKeyKind } from './idempotency/OperationStore.js';
export { InMemoryOperationStore } from './idempotency/InMemoryOperationStore.js';
export { newIdempotencyKey } from './idempotency/idempotencyKey.js';
export {
  renderFeedback,
  FEEDBACK_FORMATS,
  errorFeedback,
  structuredPayload,
  describeResult,
  truncateText,
  NEXT_ACTIONS,
  type FeedbackFormat,
  type RenderedFeedback,
  type ErrorFeedbackInput,
  type OpenAIFunctionCallOutput,
  type ClaudeToolResult,
  type McpCallToolResult,
} from './feedback/index.js';
export { AuditLog, rawError, type AuditEntry, type RawError } from './audit.js';
export { redact, REDACTED, SECRET_PATTERNS } from './redact.js';
