/** Anthropic Messages API `tool_result` content block. */
export interface ClaudeToolResult {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content: string;
  readonly is_error?: true;
}

/** `is_error: true` only on errors (R16); a success leaves the flag out, as the API's default. */
export const claudeFeedback = (toolUseId: string, text: string, isError: boolean): ClaudeToolResult => ({
  type: 'tool_result',
  tool_use_id: toolUseId,
  content: text,
  ...(isError && { is_error: true as const }),
});
