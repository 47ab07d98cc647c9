import { QUOTA_TEXT } from './errorText.js';
import type { ErrorKind } from './kinds.js';

/** HTTP status to kind; 429 is split further by its body (R5). */
export const STATUS_KINDS: Readonly<Record<number, ErrorKind>> = {
  400: 'invalid_argument',
  401: 'permission_denied',
  402: 'quota_exceeded',
  403: 'permission_denied',
  404: 'not_found',
  408: 'timeout',
  409: 'conflict',
  413: 'invalid_argument',
  422: 'invalid_argument',
  429: 'rate_limit',
  500: 'internal',
  502: 'unavailable',
  503: 'unavailable',
  504: 'unavailable',
  529: 'unavailable',
};

/** Body error codes/types that override the status (OpenAI's quota, Anthropic's overload). */
export const BODY_CODE_KINDS: Readonly<Record<string, ErrorKind>> = {
  insufficient_quota: 'quota_exceeded',
  billing_hard_limit_reached: 'quota_exceeded',
  overloaded_error: 'unavailable',
  rate_limit_error: 'rate_limit',
  rate_limit_exceeded: 'rate_limit',
};

/**
 * What an HTTP error answer says it is, read the same way by the execution layer and by the
 * HTTP fault adapters: the first body code (`error.code`/`error.type`) that names a kind wins
 * over the status (R5). `kind` is undefined when neither names one; `bodyCode` is the code that won.
 */
export function httpErrorKind(
  status: number,
  codes: readonly string[],
): { readonly kind: ErrorKind | undefined; readonly bodyCode: string | undefined } {
  // Own keys only: a body code of 'constructor' must not classify anything.
  const bodyCode = codes.find((c) => Object.hasOwn(BODY_CODE_KINDS, c));
  return { kind: bodyCode === undefined ? STATUS_KINDS[status] : BODY_CODE_KINDS[bodyCode], bodyCode };
}

/**
 * The kind an HTTP error answer comes to once its text is heard too (`said`: what `httpErrorKind` read): a 429
 * whose codes or text speak of money, with no body code to name it, is a quota, not a rate limit (R5).
 */
export function kindWithQuota(
  said: ReturnType<typeof httpErrorKind>,
  status: number,
  codes: readonly string[],
  text: string,
): ErrorKind | undefined {
  const quota =
    said.kind === 'rate_limit' &&
    status === 429 &&
    said.bodyCode === undefined &&
    QUOTA_TEXT.test(`${codes.join(' ')} ${text}`);
  return quota ? 'quota_exceeded' : said.kind;
}
