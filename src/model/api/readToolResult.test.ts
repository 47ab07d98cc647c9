import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { ErrorKind } from '../../core/index.js';
import { readToolResult, readWith, type ToolResultText } from './readToolResult.js';

/** What a test expects a text to read as: an error of a kind (with its wait), unknown (with its class), or ok. */
type Expected =
  | { readonly error: ErrorKind; readonly retryAfterMs?: number }
  | { readonly unknown: ErrorKind }
  | { readonly ok: unknown };

function read(text: string, isError?: boolean): Expected {
  const input: ToolResultText = { call: 'c1', tool: 'open_ticket', text, ...(isError !== undefined && { isError }) };
  const r = readToolResult(input);
  if (r.kind === 'ok') return { ok: r.value };
  if (r.kind === 'unknown') return { unknown: r.unknown.error_code };
  return {
    error: r.error.error_type,
    ...(r.error.retry_after_ms !== undefined && { retryAfterMs: r.error.retry_after_ms }),
  };
}

// Built with the SDKs themselves, so the texts are theirs, not a guess at them.
const openaiQuota = OpenAI.APIError.generate(
  429,
  {
    error: {
      message: 'You exceeded your current quota, please check your plan and billing details.',
      type: 'insufficient_quota',
      code: 'insufficient_quota',
    },
  },
  undefined,
  new Headers(),
);
const openaiRate = OpenAI.APIError.generate(
  429,
  {
    error: {
      message:
        'Rate limit reached for gpt-4o-mini in organization org-1 on requests per min (RPM): Limit 3, ' +
        'Used 3, Requested 1. Please try again in 20s.',
      type: 'requests',
      code: 'rate_limit_exceeded',
    },
  },
  undefined,
  new Headers(),
);
const openai503 = OpenAI.APIError.generate(503, undefined, undefined, new Headers());
const openai404 = OpenAI.APIError.generate(
  404,
  { error: { message: 'No ticket tkt-9', type: 'invalid_request_error' } },
  undefined,
  new Headers(),
);
const openai401 = OpenAI.APIError.generate(
  401,
  { error: { message: 'Incorrect API key provided: sk-abc.', type: 'invalid_request_error', code: 'invalid_api_key' } },
  undefined,
  new Headers(),
);
const anthropicRate = Anthropic.APIError.generate(
  429,
  {
    type: 'error',
    error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' },
  },
  undefined,
  new Headers(),
);
const anthropicOverloaded = Anthropic.APIError.generate(
  529,
  { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
  undefined,
  new Headers(),
);
const timeout = new OpenAI.APIConnectionTimeoutError();
const connection = new OpenAI.APIConnectionError({ message: undefined });

/** LangChain.js / LangGraph.js `ToolNode`'s default handler: `Error: ${e.message}\n Please fix your mistakes.` */
const langchain = (e: Error): string => `Error: ${e.message}\n Please fix your mistakes.`;
/** The OpenAI Agents SDK's `defaultToolErrorFunction` (agents-core `tool.ts`). */
const agentsSdk = (e: Error): string =>
  `An error occurred while running the tool. Please try again. Error: ${e.toString()}`;
/** The AI SDK's `error-text` output (`getErrorMessage`): the thrown error's message, as the tool message's content. */
const aiSdk = (e: Error): string => e.message;

const TABLE: readonly [string, string, Expected, boolean?][] = [
  // The openai SDK's errors, as an app's catch renders them (String(error)).
  ['openai SDK quota, String(error)', String(openaiQuota), { error: 'quota_exceeded' }],
  ['openai SDK rate limit with its stated wait', String(openaiRate), { error: 'rate_limit', retryAfterMs: 20_000 }],
  ['openai SDK 503 without a body', String(openai503), { error: 'unavailable' }],
  ['openai SDK 404', String(openai404), { error: 'not_found' }],
  ['openai SDK 401', String(openai401), { error: 'permission_denied' }],
  ['openai SDK request timeout', String(timeout), { unknown: 'timeout' }],
  ['openai SDK connection error', String(connection), { unknown: 'network' }],
  // The Anthropic SDK names its classes and puts the body in the message.
  ['Anthropic SDK rate limit', String(anthropicRate), { error: 'rate_limit' }],
  ['Anthropic SDK overloaded (529)', String(anthropicOverloaded), { error: 'unavailable' }],
  // LangChain.js ToolNode.
  ['LangChain quota', langchain(openaiQuota), { error: 'quota_exceeded' }],
  ['LangChain rate limit', langchain(openaiRate), { error: 'rate_limit', retryAfterMs: 20_000 }],
  ['LangChain app error', langchain(new Error('ticket service answered 503')), { error: 'unavailable' }],
  ['LangChain timeout', langchain(timeout), { unknown: 'timeout' }],
  // A tool() that throws the app's own error string: two envelopes, LangChain's around the app's (issue 21's acceptance agent).
  [
    'LangChain around an app quota string',
    langchain(new Error('error: ticket service answered 429 (quota_exceeded)')),
    { error: 'quota_exceeded' },
  ],
  [
    'LangChain around an app 429 string',
    langchain(new Error('error: ticket service answered 429 (rate_limited)')),
    { error: 'rate_limit' },
  ],
  [
    'LangChain around a lost connection',
    langchain(new Error('error: TypeError: fetch failed')),
    { unknown: 'network' },
  ],
  // The OpenAI Agents SDK.
  ['Agents SDK quota', agentsSdk(openaiQuota), { error: 'quota_exceeded' }],
  ['Agents SDK Anthropic overload', agentsSdk(anthropicOverloaded), { error: 'unavailable' }],
  ['Agents SDK tool timeout', "Tool 'open_ticket' timed out after 5000ms.", { unknown: 'timeout' }],
  // The AI SDK: the bare message.
  ['AI SDK quota', aiSdk(openaiQuota), { error: 'quota_exceeded' }],
  ['AI SDK 503', aiSdk(openai503), { error: 'unavailable' }],
  ['AI SDK app error with a status', aiSdk(new Error('ticket service answered 503')), { error: 'unavailable' }],
  ['AI SDK fetch failure', 'fetch failed', { unknown: 'network' }],
  ['AbortSignal.timeout', 'TimeoutError: The operation was aborted due to timeout', { unknown: 'timeout' }],
  // Apps' own strings.
  ['plain error prefix', 'error: ticket service answered 503', { error: 'unavailable' }],
  ['Error prefix, not found', 'Error: ticket tkt-9 not found', { error: 'not_found' }],
  ['rate limit with Retry-After', 'error: rate limited, Retry-After: 3', { error: 'rate_limit', retryAfterMs: 3_000 }],
  ['an error nothing classifies', 'Error: the printer caught fire', { unknown: 'unknown' }],
  // Structured forms.
  [
    'OpenAI error body as the tool content',
    '{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}',
    { error: 'quota_exceeded' },
  ],
  ['an error string field', '{"error":"Error: 429 Too Many Requests"}', { error: 'rate_limit' }],
  [
    'MCP isError',
    '{"content":[{"type":"text","text":"upstream answered 429, retry after 2 seconds"}],"isError":true}',
    { error: 'rate_limit', retryAfterMs: 2_000 },
  ],
  ['ok: false with a status', '{"ok":false,"status":503,"detail":"Service Unavailable"}', { error: 'unavailable' }],
  ['ok: false, lost connection', '{"ok":false,"status":"network","detail":"fetch failed"}', { unknown: 'network' }],
  [
    'problem details with retry_after',
    '{"type":"about:blank","title":"Too Many Requests","status":429,"detail":"slow down","retry_after":3}',
    { error: 'rate_limit', retryAfterMs: 3_000 },
  ],
  ['JSend error', '{"status":"error","message":"Order not found"}', { error: 'not_found' }],
  [
    'a code that names an error class',
    '{"code":"rate_limit_exceeded","message":"Rate limit exceeded"}',
    { error: 'rate_limit' },
  ],
  ['an SDK error serialised whole (AI SDK error-json)', JSON.stringify(openaiQuota), { error: 'quota_exceeded' }],
  // The protocol's own flag (Anthropic is_error) makes any text an error.
  ['is_error with a plain text', 'the helpdesk is down for maintenance', { unknown: 'unknown' }, true],
  ['is_error with a status', 'upstream answered 502', { error: 'unavailable' }, true],
  // Successes, and what cannot be read.
  ['a JSON value', '{"ticketId":"tkt-1","status":"open"}', { ok: { ticketId: 'tkt-1', status: 'open' } }],
  ['a 201 status field is no error', '{"status":201,"id":"tkt-1"}', { ok: { status: 201, id: 'tkt-1' } }],
  ['a null error field is no error', '{"error":null,"ticketId":"tkt-1"}', { ok: { error: null, ticketId: 'tkt-1' } }],
  ['a JSON array', '[1,2]', { ok: [1, 2] }],
  ['prose is unread, never success', 'Ticket tkt-1 opened for you', { unknown: 'unknown' }],
  ['an empty result is unread', '', { unknown: 'unknown' }],
];

describe('readToolResult over the texts the frameworks and SDKs write', () => {
  it.each(TABLE)('%s', (_name, text, expected, isError) => {
    expect(read(text, isError)).toEqual(expected);
  });

  it('names the tool and the text it could not read, and the hook that would read it', () => {
    const r = readToolResult({ call: 'c', tool: 'open_ticket', text: 'Ticket tkt-1 opened for you' });
    expect(r.kind === 'unknown' && r.unknown.message).toBe(
      `the stand-in model could not read open_ticket's result ("Ticket tkt-1 opened for you"): it is ` +
        `neither JSON nor an error text it knows, so it cannot tell whether the call succeeded (a ` +
        `scenario reads its app's own format with model.readToolResult)`,
    );
  });
});

describe('readWith: a scenario reader first, the built-in one when it returns undefined', () => {
  const input = { call: 'c', tool: 'open_ticket', text: 'ERR|E429|3' };
  const reader = (r: ToolResultText) =>
    r.text.startsWith('ERR|E429|')
      ? ({ kind: 'error', error: 'rate_limit', retryAfterMs: Number(r.text.split('|')[2]) * 1000 } as const)
      : undefined;

  it('reads the app’s own format with the reader, and anything else with the built-in reader', () => {
    expect(readWith(reader, input)).toMatchObject({
      kind: 'error',
      error: { error_type: 'rate_limit', retryable: true, retry_after_ms: 3_000 },
    });
    expect(readWith(reader, { ...input, text: '{"ticketId":"tkt-1"}' })).toMatchObject({
      kind: 'ok',
      value: { ticketId: 'tkt-1' },
    });
    expect(readWith(() => ({ kind: 'ok' }), input)).toMatchObject({ kind: 'ok', value: null });
    expect(readWith(() => ({ kind: 'unknown', message: 'who knows' }), input)).toMatchObject({
      kind: 'unknown',
      unknown: { message: 'who knows' },
    });
    // A timeout the reader reports is unknown too (R18), as the built-in reader's would be.
    expect(readWith(() => ({ kind: 'error', error: 'timeout' }), input)).toMatchObject({
      kind: 'unknown',
      unknown: { error_code: 'timeout' },
    });
  });

  it('refuses a reading of the wrong shape, naming what was expected', () => {
    expect(() => readWith(() => ({ kind: 'error', error: 'slow' }) as never, input)).toThrow(
      new RegExp(
        [
          String.raw`model\.readToolResult returned \{"kind":"error","error":"slow"\} for open_ticket's result; `,
          String.raw`expected \{ kind: 'ok', value\? \} \| \{ kind: 'error', error: timeout \| network`,
        ].join(''),
      ),
    );
    expect(() => readWith(() => 'ok' as never, input)).toThrow(/returned "ok"/);
  });
});
