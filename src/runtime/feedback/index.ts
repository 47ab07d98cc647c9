import type { ToolResult } from '../result.js';
import { claudeFeedback } from './claude.js';
import { mcpFeedback } from './mcp.js';
import { openaiFeedback } from './openai.js';
import { describeResult, structuredPayload } from './structured.js';
import { truncateText } from './truncate.js';

export type FeedbackFormat = 'openai' | 'claude' | 'mcp';
export const FEEDBACK_FORMATS: readonly FeedbackFormat[] = ['openai', 'claude', 'mcp'];

export interface RenderedFeedback {
  readonly format: FeedbackFormat;
  /** An error or an unknown outcome: the call did not confirm success. */
  readonly isError: boolean;
  readonly text: string;
  /** The protocol's own message object, ready to send. */
  readonly payload: unknown;
}

/**
 * A tool result in one protocol's format (R12, R16). Text longer than `maxChars` is cut with
 * a visible marker; MCP's `structuredContent` is then left out rather than sent whole.
 * `callId` defaults to the executor's call id; pass the model's own tool-call id when it has one.
 *
 * @example renderFeedback(result, 'claude').payload // { type: 'tool_result', tool_use_id, content, is_error: true }
 */
export function renderFeedback(
  result: ToolResult,
  format: FeedbackFormat,
  maxChars = 16_000,
  callId: string = result.call,
): RenderedFeedback {
  const isError = result.kind !== 'ok';
  const { text, truncated } = truncateText(describeResult(result), maxChars);
  switch (format) {
    case 'openai':
      return { format, isError, text, payload: openaiFeedback(callId, text) };
    case 'claude':
      return { format, isError, text, payload: claudeFeedback(callId, text, isError) };
    case 'mcp': {
      const structured = structuredPayload(result);
      const fits = !truncated && (JSON.stringify(structured)?.length ?? 0) <= maxChars;
      return { format, isError, text, payload: mcpFeedback(text, isError, fits ? structured : undefined) };
    }
  }
}

export {
  errorFeedback,
  structuredPayload,
  describeResult,
  NEXT_ACTIONS,
  type ErrorFeedbackInput,
} from './structured.js';
export { truncateText } from './truncate.js';
export type { OpenAIFunctionCallOutput } from './openai.js';
export type { ClaudeToolResult } from './claude.js';
export type { McpCallToolResult } from './mcp.js';
