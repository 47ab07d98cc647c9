/** The classes an error falls into (R1). The first four may pass with time; the rest cannot. */
export const ERROR_KINDS = [
  'timeout',
  'network',
  'rate_limit',
  'unavailable',
  'quota_exceeded',
  'invalid_argument',
  'permission_denied',
  'not_found',
  'conflict',
  'internal',
  'unknown',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** Transient per R1: a later attempt may succeed. */
export const TRANSIENT_KINDS: readonly ErrorKind[] = ['timeout', 'network', 'rate_limit', 'unavailable'];

/** The operation's risk axis (R4), independent of the error's class. */
export const RISKS = ['read', 'idempotent-write', 'write'] as const;
export type Risk = (typeof RISKS)[number];

/** How a tool call reached the caller in the end. */
export const CALL_RESULT_KINDS = ['ok', 'error', 'unknown'] as const;
export type CallResultKind = (typeof CALL_RESULT_KINDS)[number];

/** How an agent says its task ended. */
export const AGENT_OUTCOMES = ['completed', 'failed', 'handoff', 'unknown'] as const;
export type AgentOutcomeKind = (typeof AGENT_OUTCOMES)[number];
