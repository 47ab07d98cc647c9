/**
 * MCP `CallToolResult`. A tool's failure is a result with `isError: true`, not a JSON-RPC
 * error: those are for the protocol itself (unknown method, bad params) (R16).
 */
export interface McpCallToolResult {
  readonly content: readonly { readonly type: 'text'; readonly text: string }[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError: boolean;
}

export const mcpFeedback = (
  text: string,
  isError: boolean,
  structured: Record<string, unknown> | undefined,
): McpCallToolResult => ({
  content: [{ type: 'text', text }],
  ...(structured !== undefined && { structuredContent: structured }),
  isError,
});
