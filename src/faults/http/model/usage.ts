import type { ModelUsage } from '../../../core/index.js';

import { sseData } from './sse.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);

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
  if (chatIn !== undefined || chatOut !== undefined) return { input: chatIn ?? 0, output: chatOut ?? 0 };
  const input = count(usage['input_tokens']);
  const output = count(usage['output_tokens']);
  if (input === undefined && output === undefined) return undefined;
  const cached = (count(usage['cache_read_input_tokens']) ?? 0) + (count(usage['cache_creation_input_tokens']) ?? 0);
  return { input: (input ?? 0) + cached, output: output ?? 0 };
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
    const holder = isObj(parsed['response']) ? parsed['response'] : isObj(parsed['message']) ? parsed['message'] : parsed;
    const usage = usageOf(JSON.stringify({ usage: holder['usage'] }));
    // Anthropic splits its counts over two events: input in the first, output in the last.
    if (usage) found = { input: Math.max(found?.input ?? 0, usage.input), output: Math.max(found?.output ?? 0, usage.output) };
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
