import { ERROR_KINDS, TRANSIENT_KINDS, type ErrorKind } from '../../core/index.js';
import { BODY_CODE_KINDS } from '../../core/httpErrorKinds.js';
import type { ToolErrorFeedback, ToolResult, UnknownResult } from '../../runtime/result.js';
import { kindOfStatus, readErrorText, type TextError } from './errorTexts.js';

/** One tool result as an agent sent it back to the model. */
export interface ToolResultText {
  /** The result's text: the tool message's content, `function_call_output.output`, `tool_result.content`. */
  readonly text: string;
  /** The protocol's own error flag, where it has one (Anthropic's `tool_result.is_error`). */
  readonly isError?: boolean;
  /** The tool the call named, and the call's id. */
  readonly tool: string;
  readonly call: string;
}

/**
 * What a scenario's own reader (`model.readToolResult`) says a tool result is. `error` names one
 * of faultline's error kinds; `unknown` says the outcome cannot be told (the stand-in reports it
 * as unknown, never as success). Returning `undefined` leaves the result to the built-in reader.
 */
export type ToolReading =
  | { readonly kind: 'ok'; readonly value?: unknown }
  | { readonly kind: 'error'; readonly error: ErrorKind; readonly message?: string; readonly retryAfterMs?: number }
  | { readonly kind: 'unknown'; readonly message?: string };
export type ToolReadingKind = ToolReading['kind'];

/** A scenario's reader for its app's own tool-result format (`model: { readToolResult }`). */
export type ToolResultReader = (result: ToolResultText) => ToolReading | undefined;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const EXCERPT = 120;

function parseJson(text: string): { readonly value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * R18: a timeout, a lost connection or an error nothing classifies says the caller stopped
 * waiting, not that nothing happened. The stand-in cannot ask a status it does not know of, so
 * such a result is `unknown` (R27's shape without an operation id), never a plain failure.
 */
const UNCERTAIN: readonly ErrorKind[] = ['timeout', 'network', 'unknown'];

function unknownOf(call: string, tool: string, errorCode: ErrorKind, message: string): ToolResult {
  const unknown: UnknownResult = {
    operation_id: '',
    status: 'unknown',
    error_code: errorCode,
    execution_confirmed: false,
    retry_allowed: false,
    next_action: 'ask_user',
    message,
  };
  return { kind: 'unknown', call, tool, attempts: 1, unknown };
}

function errorOf(call: string, tool: string, e: TextError): ToolResult {
  if (UNCERTAIN.includes(e.kind))
    return unknownOf(call, tool, e.kind, `${e.message} (the call may or may not have taken effect)`);
  const error: ToolErrorFeedback = {
    error_type: e.kind,
    message: e.message,
    retryable: TRANSIENT_KINDS.includes(e.kind),
    ...(e.retryAfterMs !== undefined && { retry_after_ms: e.retryAfterMs }),
    arguments: null,
    attempts: 1,
    // The app's text names no next step; the stand-in decides from the kind.
    next_actions: [],
  };
  return { kind: 'error', call, tool, attempts: 1, error };
}

/** faultline's own rendering (`describeResult`): a headline, then the structured result as one JSON line. */
function faultlineForm(call: string, tool: string, text: string): ToolResult | undefined {
  const newline = text.indexOf('\n');
  const tail = newline >= 0 ? parseJson(text.slice(newline + 1))?.value : undefined;
  if (isObj(tail) && isObj(tail['error']) && typeof tail['error']['error_type'] === 'string') {
    const error = tail['error'] as unknown as ToolErrorFeedback;
    return { kind: 'error', call, tool, attempts: error.attempts, error };
  }
  if (isObj(tail) && tail['status'] === 'unknown' && typeof tail['operation_id'] === 'string') {
    return { kind: 'unknown', call, tool, attempts: 1, unknown: tail as unknown as UnknownResult };
  }
  return undefined;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim())
      ? Number(v)
      : undefined;

/** MCP `content` parts, or any text field, as one string. */
function textOfContent(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return undefined;
  const parts = v
    .map((p) => (isObj(p) ? str(p['text']) : typeof p === 'string' ? p : undefined))
    .filter((p): p is string => p !== undefined);
  return parts.length > 0 ? parts.join('\n') : undefined;
}

/** Whether a JSON body says it is an error, and where its details are. */
function errorMarker(o: Obj): { readonly inner: Obj; readonly text?: string } | undefined {
  // MCP's CallToolResult and an Anthropic tool_result block, passed on whole.
  if (o['isError'] === true || o['is_error'] === true) {
    const text = textOfContent(o['content']);
    return { inner: isObj(o['structuredContent']) ? o['structuredContent'] : o, ...(text !== undefined && { text }) };
  }
  const error = o['error'] ?? o['errors'];
  if (
    error !== undefined &&
    error !== null &&
    error !== false &&
    error !== '' &&
    !(Array.isArray(error) && error.length === 0)
  ) {
    const first = Array.isArray(error) ? error[0] : error;
    return isObj(first) ? { inner: first } : { inner: o, ...(typeof first === 'string' && { text: first }) };
  }
  if (o['ok'] === false || o['success'] === false) return { inner: o };
  const status = num(o['status']) ?? num(o['statusCode']) ?? num(o['status_code']);
  if (status !== undefined && status >= 400 && status <= 599) return { inner: o };
  // JSend's error forms, and bodies whose code or type is an error class (`{"type":"rate_limit_error"}`).
  if (o['status'] === 'error' || o['status'] === 'fail' || o['type'] === 'error') return { inner: o };
  const code = str(o['code']) ?? str(o['type']) ?? str(o['error_type']);
  if (code !== undefined && (Object.hasOwn(BODY_CODE_KINDS, code) || (ERROR_KINDS as readonly string[]).includes(code)))
    return { inner: o };
  return undefined;
}

/** An error body's class: its code or type first, then its status, then its message's words. */
function readErrorBody(o: Obj, marker: { readonly inner: Obj; readonly text?: string }): TextError {
  const { inner } = marker;
  // A status in words (`"status": "network"`) is a code too.
  const codes = [
    inner['error_type'],
    inner['code'],
    inner['type'],
    o['error_type'],
    o['code'],
    o['type'],
    inner['status'],
    o['status'],
  ]
    .map(str)
    .filter((c): c is string => c !== undefined);
  const message =
    marker.text ??
    str(inner['message']) ??
    str(inner['detail']) ??
    str(inner['title']) ??
    str(o['message']) ??
    str(o['detail']) ??
    str(o['title']) ??
    JSON.stringify(o).slice(0, 2 * EXCERPT);
  const status = [
    inner['status'],
    inner['statusCode'],
    inner['status_code'],
    o['status'],
    o['statusCode'],
    o['status_code'],
  ]
    .map(num)
    .find((s) => s !== undefined && s >= 100 && s <= 599);
  const fromText = readErrorText(message, true);
  const seconds = [
    inner['retry_after'],
    inner['retryAfter'],
    o['retry_after'],
    o['retryAfter'],
    isObj(o['headers']) ? o['headers']['retry-after'] : undefined,
  ]
    .map(num)
    .find((s) => s !== undefined);
  const ms = [inner['retry_after_ms'], inner['retryAfterMs'], o['retry_after_ms'], o['retryAfterMs']]
    .map(num)
    .find((s) => s !== undefined);
  const retryAfterMs = ms ?? (seconds === undefined ? fromText?.retryAfterMs : seconds * 1_000);
  const named = codes.find((c) => (ERROR_KINDS as readonly string[]).includes(c)) as ErrorKind | undefined;
  const kind =
    named ??
    (status !== undefined ? kindOfStatus(status, codes, message) : undefined) ??
    codes
      .map((c) => (Object.hasOwn(BODY_CODE_KINDS, c) ? BODY_CODE_KINDS[c] : undefined))
      .find((k) => k !== undefined) ??
    fromText?.kind ??
    'unknown';
  return {
    kind,
    message: fromText?.message ?? message,
    ...(status !== undefined && { status }),
    ...(retryAfterMs !== undefined && { retryAfterMs }),
  };
}

function excerpt(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > EXCERPT ? `${one.slice(0, EXCERPT)}…` : one;
}

/**
 * The stand-in model's reader: what one tool result, as an agent sent it back, says happened.
 * In order:
 * 1. faultline's own rendering (the execution layer's headline and JSON line), read back exactly;
 * 2. structured forms: the protocol's error flag (Anthropic `is_error`), then a JSON body that
 *    says it is an error: MCP's `isError`, an `error`/`errors` field, `ok: false` or
 *    `success: false`, an HTTP `status` of 400 or more, JSend's `status: "error"`, or a `code` or
 *    `type` that names an error class (`insufficient_quota`, `rate_limit_error`); its class comes
 *    from its code, its status, then its message;
 * 3. the error texts the common frameworks write (`readErrorText`: the openai and Anthropic SDKs,
 *    the AI SDK, the OpenAI Agents SDK, LangChain.js, and `Error: …` / `error: …` prefixes);
 * 4. any other JSON value is the tool's answer (`ok`).
 * A timeout, a lost connection or an unclassified error is `unknown` (R18), and so is a text
 * none of these read: never success.
 */
export function readToolResult({ text, isError = false, tool, call }: ToolResultText): ToolResult {
  const own = faultlineForm(call, tool, text);
  if (own) return own;
  const json = parseJson(text);
  if (json && typeof json.value === 'string' && json.value !== text)
    return readToolResult({ text: json.value, isError, tool, call });
  if (json && isObj(json.value)) {
    const marker = errorMarker(json.value) ?? (isError ? { inner: json.value } : undefined);
    return marker
      ? errorOf(call, tool, readErrorBody(json.value, marker))
      : { kind: 'ok', call, tool, attempts: 1, value: json.value };
  }
  if (json && !isError) return { kind: 'ok', call, tool, attempts: 1, value: json.value };
  const fromText = readErrorText(text, isError);
  if (fromText) return errorOf(call, tool, fromText);
  if (isError) return errorOf(call, tool, { kind: 'unknown', message: excerpt(text) });
  return unknownOf(
    call,
    tool,
    'unknown',
    `the stand-in model could not read ${tool}'s result ("${excerpt(text)}"): it is neither JSON nor ` +
      `an error text it knows, so it cannot tell whether the call succeeded (a scenario reads its ` +
      `app's own format with model.readToolResult)`,
  );
}

const READING_SHAPE =
  `{ kind: 'ok', value? } | { kind: 'error', error: ${ERROR_KINDS.join(' | ')}, ` +
  `message?, retryAfterMs? } | { kind: 'unknown', message? } | undefined`;

/**
 * A tool result read by the scenario's own reader first, then by the built-in one when it returns
 * `undefined`. A reader that returns anything else throws, naming what was expected.
 */
export function readWith(reader: ToolResultReader | undefined, input: ToolResultText): ToolResult {
  const reading = reader?.(input);
  if (reading === undefined) return readToolResult(input);
  const { call, tool } = input;
  if (isObj(reading) && reading['kind'] === 'ok')
    return { kind: 'ok', call, tool, attempts: 1, value: reading.value ?? null };
  if (isObj(reading) && reading['kind'] === 'unknown')
    return unknownOf(
      call,
      tool,
      'unknown',
      str(reading['message']) ?? `${tool}: the scenario's reader could not tell how the call ended`,
    );
  if (isObj(reading) && reading['kind'] === 'error' && (ERROR_KINDS as readonly unknown[]).includes(reading['error'])) {
    const r = reading as Extract<ToolReading, { kind: 'error' }>;
    const wait = num(r.retryAfterMs);
    return errorOf(call, tool, {
      kind: r.error,
      message: str(r.message) ?? r.error.replace('_', ' '),
      ...(wait !== undefined && { retryAfterMs: wait }),
    });
  }
  throw new TypeError(
    `model.readToolResult returned ${JSON.stringify(reading) ?? String(reading)} for ${tool}'s result; expected ${READING_SHAPE}`,
  );
}
