import { MESSAGE_PATTERNS, type ErrorKind } from '../../core/index.js';
import { httpErrorKind, kindWithQuota } from '../../core/httpErrorKinds.js';

/** What an error text says: its class, the status and wait it states, and the message without its wrappers. */
export interface TextError {
  readonly kind: ErrorKind;
  readonly message: string;
  readonly status?: number;
  readonly retryAfterMs?: number;
}

/**
 * The envelopes frameworks put around a thrown error when they hand it to the model as the tool's
 * result, outermost first. Each was read from the framework's source, not guessed:
 * - LangChain.js / LangGraph.js `ToolNode` (`handleToolErrors`, on by default):
 *   `Error: ${e.message}\n Please fix your mistakes.`
 * - OpenAI Agents SDK (`defaultToolErrorFunction`, agents-core `tool.ts`):
 *   `An error occurred while running the tool. Please try again. Error: ${error.toString()}`
 * - `String(error)` in an app's own catch, or `error.toString()` inside the Agents SDK's envelope:
 *   `Error: …`, `TypeError: …`, `RateLimitError: …` (the Anthropic SDK names its classes; the
 *   openai SDK's stay `Error`)
 * - an app's own prefixes: `error: …`, `ERROR …`, `Tool error: …`, `failed: …`
 */
const ENVELOPES: readonly RegExp[] = [
  /^Error: ([\s\S]*?)\n Please fix your mistakes\.?\s*$/,
  /^An error occurred while running the tool\. Please try again\. Error: ([\s\S]*)$/,
  /^(?:Tool error|Tool execution failed|error|ERROR|Error|failed|Failed)\s*[:\-–]\s*([\s\S]*)$/,
];

/** `SomethingError: message`, as `String(error)` writes it; the class name says the kind where the status cannot. */
const NAMED = /^([A-Z][A-Za-z]*Error|AbortError): ([\s\S]*)$/;

/** Error class names of the SDKs and runtimes (openai, @anthropic-ai/sdk, undici, DOM), and what each means. */
const CLASS_KINDS: Readonly<Record<string, ErrorKind>> = {
  APIConnectionTimeoutError: 'timeout',
  APIConnectionError: 'network',
  APIUserAbortError: 'unknown',
  TimeoutError: 'timeout',
  AbortError: 'unknown',
  AuthenticationError: 'permission_denied',
  PermissionDeniedError: 'permission_denied',
  PaymentRequiredError: 'quota_exceeded',
  NotFoundError: 'not_found',
  ConflictError: 'conflict',
  BadRequestError: 'invalid_argument',
  UnprocessableEntityError: 'invalid_argument',
  RateLimitError: 'rate_limit',
  InternalServerError: 'internal',
  ServiceUnavailableError: 'unavailable',
  GatewayTimeoutError: 'unavailable',
  OverloadedError: 'unavailable',
  RequestTimeoutError: 'timeout',
};

/**
 * Messages the SDKs and runtimes write without a status, word for word (openai and Anthropic
 * SDKs: `APIConnectionError`, `APIConnectionTimeoutError`, `APIUserAbortError`; undici's fetch;
 * `AbortSignal.timeout`), and the Agents SDK's tool timeout.
 */
const EXACT: readonly { readonly pattern: RegExp; readonly kind: ErrorKind }[] = [
  { pattern: /^Connection error\.?$/, kind: 'network' },
  { pattern: /^Request timed out\.?$/, kind: 'timeout' },
  { pattern: /^Request was aborted\.?$/, kind: 'unknown' },
  { pattern: /^fetch failed$/, kind: 'network' },
  { pattern: /^The operation was aborted due to timeout\.?$/, kind: 'timeout' },
  { pattern: /^(?:This|The) operation was aborted\.?$/, kind: 'unknown' },
  { pattern: /^Tool '[^'\n]*' timed out after \d+ms\.?$/, kind: 'timeout' },
];

/**
 * `429 {"type":"error",…}` or `503 Service Unavailable`: the openai and Anthropic SDKs' `APIError` message
 * (`${status} ${body or message}`).
 */
const STAINLESS = /^([1-5]\d\d) ([\s\S]+)$/;
/** A status stated in prose: `answered 503`, `HTTP 429`, `status code 404`, `returned status 500`. */
const STATUS_PHRASE =
  /\b(?:status(?: code)?|HTTP(?:\/\d(?:\.\d)?)?|answered(?: with)?|returned(?: status)?|responded(?: with)?)\s*:?\s*([1-5]\d\d)\b/i;
/** Waits stated in prose: openai's `Please try again in 1.5s` / `in 20ms`, `Retry-After: 3`, `retry after 2 seconds`. */
const WAIT_PHRASE =
  /\b(?:try again in|retry[- ]after:?|retry in|wait(?: for)?)\s*(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?)?\b/i;

/** Kinds whose patterns are specific enough to read in a text that does not say it is an error. */
const UNMARKED_KINDS: readonly ErrorKind[] = ['quota_exceeded', 'rate_limit', 'unavailable', 'timeout', 'network'];

/** The longest text the patterns look at: a tool's result can be large, and an error says what it is early. */
const MAX_TEXT = 4_000;

function waitOf(text: string): number | undefined {
  const m = WAIT_PHRASE.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = (m[2] ?? 's').toLowerCase();
  return Math.round(unit.startsWith('m') ? n : n * 1_000);
}

/** The codes and message of a JSON error body (`{"error":{"type","code","message"}}`, Anthropic's and OpenAI's). */
function jsonBody(text: string): { codes: string[]; message?: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const body = parsed as Record<string, unknown>;
  const inner =
    typeof body['error'] === 'object' && body['error'] !== null ? (body['error'] as Record<string, unknown>) : body;
  const codes = [inner['code'], inner['type']].filter((c): c is string => typeof c === 'string');
  return typeof inner['message'] === 'string' ? { codes, message: inner['message'] } : { codes };
}

/** The class a status and body codes name; a 429 that speaks of money is a quota (R5). */
export function kindOfStatus(status: number, codes: readonly string[], text: string): ErrorKind | undefined {
  const kind = kindWithQuota(httpErrorKind(status, codes), status, codes, text);
  if (kind !== undefined) return kind;
  return status >= 500 ? 'internal' : status >= 400 ? 'invalid_argument' : undefined;
}

/**
 * Reads an error text the common frameworks and SDKs produce (see `ENVELOPES`, `EXACT`,
 * `STAINLESS`) into its class. `marked`: something outside the text already says it is an error
 * (Anthropic's `is_error`, MCP's `isError`, a JSON `error` field); an unmarked text is read as an
 * error only when it carries an envelope, an SDK's exact wording, an HTTP status of 400 or more,
 * or a transient or quota phrase. `undefined`: not an error this reader recognises.
 */
export function readErrorText(whole: string, marked = false): TextError | undefined {
  let text = whole.slice(0, MAX_TEXT).trim();
  let enveloped = marked;
  let named: ErrorKind | undefined;
  // Envelopes nest (the Agents SDK's around `Error: …`), so peel a few.
  for (let peel = 0; peel < 4; peel++) {
    const envelope = ENVELOPES.map((e) => e.exec(text)).find((m) => m !== null);
    const name = envelope ? undefined : NAMED.exec(text);
    if (envelope) text = envelope[1]!.trim();
    else if (name) {
      named ??= Object.hasOwn(CLASS_KINDS, name[1]!) ? CLASS_KINDS[name[1]!] : undefined;
      text = name[2]!.trim();
    } else break;
    enveloped = true;
  }
  const exact = EXACT.find((e) => e.pattern.test(text));
  if (exact) return { kind: exact.kind, message: text };

  const sdk = STAINLESS.exec(text);
  const phrase = sdk ? undefined : STATUS_PHRASE.exec(text);
  const status = Number((sdk ?? phrase)?.[1] ?? NaN);
  const body = sdk ? jsonBody(sdk[2]!) : undefined;
  const message = body?.message ?? (sdk && !sdk[2]!.startsWith('{') ? sdk[2]! : text);
  const retryAfterMs = waitOf(text);
  const wait = retryAfterMs === undefined ? {} : { retryAfterMs };
  if (Number.isInteger(status) && status >= 400) {
    const kind = kindOfStatus(status, body?.codes ?? [], message) ?? 'unknown';
    return { kind, message, status, ...wait };
  }
  const byText = MESSAGE_PATTERNS.find((p) => p.pattern.test(text))?.kind;
  if (named !== undefined)
    return { kind: named === 'rate_limit' && byText === 'quota_exceeded' ? byText : named, message, ...wait };
  if (byText !== undefined && (enveloped || UNMARKED_KINDS.includes(byText))) return { kind: byText, message, ...wait };
  return enveloped ? { kind: named ?? 'unknown', message, ...wait } : undefined;
}
