import { describe, expect, it } from 'vitest';
import type { ToolResult } from '../result.js';
import { renderFeedback } from './index.js';
import { errorFeedback } from './structured.js';
import { truncateText } from './truncate.js';
import { unknownCreateOrder } from './unknownCreateOrder.testkit.js';

const ok: ToolResult = { kind: 'ok', call: 'call-1', tool: 'search', attempts: 1, value: { hits: 2 } };
const rateLimited: ToolResult = {
  kind: 'error',
  call: 'call-2',
  tool: 'search',
  attempts: 3,
  error: errorFeedback({
    error: { kind: 'rate_limit', message: 'Too Many Requests', retryable: true, status: 429, retryAfterMs: 2_000 },
    input: { q: 'x' },
    attempts: 3,
  }),
};
const unknown = unknownCreateOrder('call-3', 2, 'not confirmed');
const errorText =
  'Error [rate_limit] after 3 attempt(s): Too Many Requests. Retrying later may help. Wait at least ' +
  '2000 ms before retrying. Next: retry_later.\n' +
  '{"error":{"error_type":"rate_limit","message":"Too Many ' +
  'Requests","retryable":true,"retry_after_ms":2000,"arguments":{"q":"x"},"attempts":3,"next_actions":["retry_later"]}}';

describe('renderFeedback', () => {
  it('OpenAI: no error flag, so the error is written into the output text', () => {
    expect(renderFeedback(rateLimited, 'openai')).toEqual({
      format: 'openai',
      isError: true,
      text: errorText,
      payload: { type: 'function_call_output', call_id: 'call-2', output: errorText },
    });
    expect(renderFeedback(ok, 'openai').payload).toEqual({
      type: 'function_call_output',
      call_id: 'call-1',
      output: '{"hits":2}',
    });
  });

  it("Claude: is_error: true on errors only, and the model's tool_use id when given", () => {
    expect(renderFeedback(rateLimited, 'claude', 16_000, 'toolu_01').payload).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_01',
      content: errorText,
      is_error: true,
    });
    const success = renderFeedback(ok, 'claude').payload;
    expect(success).toEqual({ type: 'tool_result', tool_use_id: 'call-1', content: '{"hits":2}' });
    expect(success).not.toHaveProperty('is_error');
  });

  it('MCP: a CallToolResult with isError and structuredContent, not a JSON-RPC error', () => {
    expect(renderFeedback(rateLimited, 'mcp').payload).toEqual({
      content: [{ type: 'text', text: errorText }],
      structuredContent: { error: rateLimited.kind === 'error' && rateLimited.error },
      isError: true,
    });
    expect(renderFeedback(ok, 'mcp').payload).toEqual({
      content: [{ type: 'text', text: '{"hits":2}' }],
      structuredContent: { hits: 2 },
      isError: false,
    });
    const scalar: ToolResult = { ...ok, value: 7 } as ToolResult;
    expect(renderFeedback(scalar, 'mcp').payload).toMatchObject({ structuredContent: { result: 7 } });
  });

  it('an unknown outcome is flagged as an error and carries the R27 object', () => {
    const r = renderFeedback(unknown, 'mcp');
    expect(r.isError).toBe(true);
    expect(r.text.startsWith('Outcome unknown [timeout] for operation op-1: not confirmed\n')).toBe(true);
    expect(r.payload).toMatchObject({
      structuredContent: { operation_id: 'op-1', execution_confirmed: false, next_action: 'query_operation_status' },
      isError: true,
    });
    expect(renderFeedback(unknown, 'claude').payload).toMatchObject({ is_error: true });
  });

  it('never a bare "failed", never a stack trace', () => {
    for (const format of ['openai', 'claude', 'mcp'] as const) {
      const { text } = renderFeedback(rateLimited, format);
      expect(text).not.toMatch(/^failed$/i);
      expect(text).not.toMatch(/\n\s+at /);
      expect(text).toContain('rate_limit');
    }
  });

  it('truncates large outputs with a visible marker and drops oversized structuredContent', () => {
    const big: ToolResult = { ...ok, value: { blob: 'x'.repeat(50_000) } } as ToolResult;
    const r = renderFeedback(big, 'mcp', 1_000);
    expect(r.text).toHaveLength(1_000);
    expect(r.text).toMatch(/…\[output truncated: \d+ of 50011 characters omitted\]$/);
    expect(r.payload).not.toHaveProperty('structuredContent');
    expect(renderFeedback(big, 'openai', 1_000).payload).toMatchObject({ output: r.text });
  });
});

describe('truncateText', () => {
  it('leaves short text alone and counts what it cut', () => {
    expect(truncateText('abc', 3)).toEqual({ text: 'abc', truncated: false });
    const cut = truncateText('y'.repeat(200), 60);
    expect(cut.truncated).toBe(true);
    expect(cut.text.length).toBeLessThanOrEqual(60);
    const omitted = Number(/: (\d+) of 200/.exec(cut.text)?.[1]);
    expect(cut.text.indexOf('\n') + omitted).toBe(200);
  });
});
