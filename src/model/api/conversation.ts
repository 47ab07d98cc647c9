import { z } from 'zod';
import type { AgentOutcomeKind, Claim, ToolContract } from '../../core/index.js';
import type { Message, ModelAction, ProposedCall } from '../model.js';
import type { ToolResult } from '../../runtime/result.js';
import { readToolResult, readWith, type ToolResultReader } from './readToolResult.js';

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A tool result as the agent sent it back to the model (text), read back into the structure
 * a `Model` reacts to, by the built-in reader (`readToolResult`).
 */
export function toolResultFromText(call: string, tool: string, text: string): ToolResult {
  return readToolResult({ call, tool, text });
}

/** A tool the request declares, as a contract the model sees (the SDKs send no risk: `read`). */
export function contractOf(name: string, description: string): ToolContract {
  return { name, description, risk: 'read', input: z.unknown(), honoursIdempotencyKeys: false, canQueryStatus: false };
}

/**
 * The text an answer carries for a model's last word. The APIs have no place for an outcome
 * or claims, so a final answer is JSON text (`{"outcome","message","claims"}`); an agent on a
 * real SDK reads it back with `finalFromText`. A wait is `{"wait_ms": n}` only where a caller
 * writes one itself: the stand-in serving an API sleeps a wait out instead (`ModelResponder`).
 */
export function actionText(action: Exclude<ModelAction, { kind: 'tool_calls' }>): string {
  return action.kind === 'wait'
    ? JSON.stringify({ wait_ms: action.ms })
    : JSON.stringify({ outcome: action.outcome, message: action.message, claims: action.claims });
}

const OUTCOMES: readonly AgentOutcomeKind[] = ['completed', 'failed', 'handoff', 'unknown'];

/** Reads an assistant's text back into an action: the JSON `actionText` writes, or a plain final answer. */
export function finalFromText(text: string): Exclude<ModelAction, { kind: 'tool_calls' }> {
  const parsed = parseJson(text);
  if (isObj(parsed) && typeof parsed['wait_ms'] === 'number') return { kind: 'wait', ms: parsed['wait_ms'] };
  if (isObj(parsed) && OUTCOMES.includes(parsed['outcome'] as AgentOutcomeKind)) {
    const claims = Array.isArray(parsed['claims']) ? (parsed['claims'] as Claim[]) : [];
    return { kind: 'final', outcome: parsed['outcome'] as AgentOutcomeKind, message: str(parsed['message']), claims };
  }
  // An empty answer, or the error text a client or framework puts where the answer should be, says
  // nothing was done: not a completion. The outcome cannot be confirmed (R20), so it is unknown.
  if (text.trim() === '')
    return {
      kind: 'final',
      outcome: 'unknown',
      message: "the model's answer was empty: no final answer to read",
      claims: [],
    };
  if (ERROR_TEXT.test(text))
    return {
      kind: 'final',
      outcome: 'unknown',
      message: `the model's answer is an error, not a final answer: ${text.trim().slice(0, 200)}`,
      claims: [],
    };
  return { kind: 'final', outcome: 'completed', message: text, claims: [] };
}

// `[API ERROR] HTTP 500`, `[Error: …]`, `Error: …`, `APIError: 500 …`, `HTTP 503 Service Unavailable`: where
// clients and agent frameworks write a failed model call into the answer's place.
const ERROR_TEXT =
  /^\s*(?:\[[^\]\n]{0,40}\berror\b[^\]\n]{0,40}\]|(?:api\s*|[a-z]*)error\b\s*:|\bHTTP\/?[\d.]*\s+[45]\d\d\b)/i;

/** Builds the loop's messages while remembering which tool each call id named. */
export class ConversationBuilder {
  readonly messages: Message[] = [];
  readonly #toolOf = new Map<string, string>();
  task = '';

  /** `reader`: the scenario's own reader of tool results, tried before the built-in one. */
  constructor(readonly reader?: ToolResultReader) {}

  user(text: string): void {
    if (this.task === '') this.task = text;
    this.messages.push({ role: 'user', text });
  }

  assistantCalls(calls: readonly ProposedCall[]): void {
    for (const c of calls) if (c.id !== undefined) this.#toolOf.set(c.id, c.tool);
    this.messages.push({ role: 'assistant', action: { kind: 'tool_calls', calls } });
  }

  assistantText(text: string): void {
    this.messages.push({ role: 'assistant', action: finalFromText(text) });
  }

  /** `isError`: the protocol's own error flag, where it has one (Anthropic's `is_error`). */
  toolResult(call: string, text: string, isError?: boolean): void {
    const tool = this.#toolOf.get(call) ?? 'unknown';
    const result = readWith(this.reader, { call, tool, text, ...(isError === true && { isError }) });
    this.messages.push({ role: 'tool', call, tool, result, text });
  }
}

/** Tool arguments arrive as JSON text (OpenAI) or objects (Anthropic). */
export function argumentsOf(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  const parsed = parseJson(raw);
  return parsed === undefined ? raw : parsed;
}

/** The text of a content field: a string, or the concatenated text parts of a part list. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (isObj(p) ? str(p['text']) : '')).join('');
}
