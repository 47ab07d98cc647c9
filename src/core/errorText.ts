import type { ErrorKind } from './kinds.js';

/** A 429 whose text says this is about money, not speed, is a quota (R5). */
export const QUOTA_TEXT = /quota|billing|insufficient[_ ]?(funds|credits?|balance)|credit balance|plan limit/i;

/**
 * Patterns in an error's message, read last (R2): the first that matches wins, so order
 * matters. The execution layer's classifier and the stand-in model's tool-result reader share them.
 */
export const MESSAGE_PATTERNS: readonly { readonly pattern: RegExp; readonly kind: ErrorKind }[] = [
  { pattern: /insufficient[_ ]quota|exceeded your (current )?quota|billing|quota exceeded/i, kind: 'quota_exceeded' },
  { pattern: /rate.?limit|too many requests/i, kind: 'rate_limit' },
  {
    pattern: /overloaded|service unavailable|temporarily unavailable|bad gateway|gateway time-?out/i,
    kind: 'unavailable',
  },
  { pattern: /timed? ?out|timeout|deadline exceeded/i, kind: 'timeout' },
  {
    pattern:
      /socket hang up|connection (reset|refused|closed|aborted)|network error|failed to fetch|fetch failed|getaddrinfo|dns/i,
    kind: 'network',
  },
  {
    pattern: /unauthori[sz]ed|forbidden|permission denied|access denied|invalid api key|not allowed/i,
    kind: 'permission_denied',
  },
  { pattern: /not found|no such|does not exist/i, kind: 'not_found' },
  { pattern: /conflict|already exists/i, kind: 'conflict' },
  { pattern: /invalid|required|must be|bad request|validation/i, kind: 'invalid_argument' },
  { pattern: /internal server error|internal error/i, kind: 'internal' },
];

/** The kind the first matching pattern names, or `unknown`. */
export function kindOfMessage(message: string): ErrorKind {
  return MESSAGE_PATTERNS.find((p) => p.pattern.test(message))?.kind ?? 'unknown';
}
