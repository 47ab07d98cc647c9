import type { ModelUsage } from '../../core/index.js';

import type { AnswerUsage } from '../../faults/http/HttpRoute.js';
import { sseData } from '../../faults/http/sse.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;

/**
 * The token counts a model answer reports in its `usage` field: OpenAI Chat Completions'
 * `prompt_tokens`/`completion_tokens`, or the Responses and Anthropic Messages APIs'
 * `input_tokens`/`output_tokens` (Anthropic's cache reads and writes count as input).
 * `undefined` when the body has no usage, or is not JSON.
 */
export function usageOf(body: string): ModelUsage | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
  const usage = isObj(parsed) ? parsed['usage'] : undefined;
  if (!isObj(usage)) return undefined;
  const chatIn = count(usage['prompt_tokens']);
  const chatOut = count(usage['completion_tokens']);
  if (chatIn !== undefined || chatOut !== undefined) {
    const details = usage['prompt_tokens_details'];
    const cached = isObj(details) ? (count(details['cached_tokens']) ?? 0) : 0;
    return { input: chatIn ?? 0, output: chatOut ?? 0, ...(cached > 0 && { cached }) };
  }
  const input = count(usage['input_tokens']);
  const output = count(usage['output_tokens']);
  if (input === undefined && output === undefined) return undefined;
  const read = count(usage['cache_read_input_tokens']) ?? 0;
  const written = count(usage['cache_creation_input_tokens']) ?? 0;
  // The Responses API says how much of its input came from the cache in input_tokens_details.
  const details = usage['input_tokens_details'];
  const cached = read + (isObj(details) ? (count(details['cached_tokens']) ?? 0) : 0);
  return { input: (input ?? 0) + read + written, output: output ?? 0, ...(cached > 0 && { cached }) };
}

/**
 * The token counts a streamed answer reports, read from its events: a Chat Completions chunk's
 * `usage` (sent with `stream_options.include_usage`), `response.completed`'s `response.usage`,
 * Anthropic's `message_start` (input) and `message_delta` (output). `undefined` when none says.
 */
export function streamUsageOf(events: readonly string[]): ModelUsage | undefined {
  let found: ModelUsage | undefined;
  for (const frame of events) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(sseData(frame)) as unknown;
    } catch {
      continue;
    }
    if (!isObj(parsed)) continue;
    const holder = isObj(parsed['response'])
      ? parsed['response']
      : isObj(parsed['message'])
        ? parsed['message']
        : parsed;
    const usage = usageOf(JSON.stringify({ usage: holder['usage'] }));
    // Anthropic splits its counts over two events: input in the first, output in the last.
    if (usage) {
      const cached = Math.max(found?.cached ?? 0, usage.cached ?? 0);
      found = {
        input: Math.max(found?.input ?? 0, usage.input),
        output: Math.max(found?.output ?? 0, usage.output),
        ...(cached > 0 && { cached }),
      };
    }
  }
  return found;
}

/**
 * The scripted model's stand-in for a tokenizer, so token metrics are exercised offline: about
 * four characters a token, `ceil(chars / 4)` of the value's JSON. An estimate, not a count: a
 * real model's tokenizer differs, and the report says so.
 */
export function estimateTokens(value: unknown): number {
  if (value === undefined || value === null) return 0;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return Math.ceil(text.length / 4);
}

/** The model APIs' usage reader, registered with their routes (see `HttpRoute.usage`). */
export const ANSWER_USAGE: AnswerUsage = { of: usageOf, ofStream: streamUsageOf };
