import { describe, expect, it } from 'vitest';
import type { HistoryEvent, HttpRequestFields } from '../core/index.js';
import { modelRetryAfterProblems, resenderOf } from './modelResends.js';
import { WireView } from './WireView.js';
import { frameworkOf } from '../faults/http/requestEvent.js';

const CHAT = 'model:openai.chat.completions';

describe('resenderOf', () => {
  it('names the SDK for a retry count above 0, and the layers above it for 0 or no header', () => {
    expect(resenderOf({ sdkRetryCount: 2 })).toEqual({
      layer: 'sdk',
      text: "the SDK's own retry (x-stainless-retry-count: 2)",
    });
    expect(resenderOf({ sdkRetryCount: 0 }).layer).toBe('framework-or-agent');
    expect(resenderOf({}).text).toContain('no retry-count header');
  });

  it('names the framework whose client sent a resend, where the User-Agent said, and still the agent loop beside it', () => {
    expect(resenderOf({ sdkRetryCount: 0, framework: 'LangChain.js' })).toEqual({
      layer: 'framework-or-agent',
      framework: 'LangChain.js',
      text:
        "LangChain.js's retry layer or the agent's own loop around it (its User-Agent names " +
        "LangChain.js; the same body again with x-stainless-retry-count: 0: not the SDK's retry)",
    });
    // An SDK's own retry stays the SDK's, whichever framework built the client.
    expect(resenderOf({ sdkRetryCount: 1, framework: 'OpenAI Agents SDK' }).layer).toBe('sdk');
  });
});

describe('frameworkOf', () => {
  it('reads the framework from the User-Agent each sends, and nothing from a plain SDK', () => {
    expect(frameworkOf('langchainjs-openai/1.0.0 ((node/v20.20.2; linux; x64))')).toBe('LangChain.js');
    expect(frameworkOf('ai/6.0.325 ai-sdk/provider-utils/4.0.66 runtime/node.js/v20.20.2')).toBe('AI SDK');
    expect(frameworkOf('Agents/JavaScript 0.8.5')).toBe('OpenAI Agents SDK');
    expect(frameworkOf('OpenAI/JS 6.49.0')).toBeUndefined();
    expect(frameworkOf('axios/1.21.1')).toBeUndefined();
    expect(frameworkOf(undefined)).toBeUndefined();
  });
});

describe('modelRetryAfterProblems', () => {
  /** An SDK that resends after 500 ms though the 429 said Retry-After: 3 (as one that ignores the header would). */
  function history(second: Partial<HttpRequestFields>, otherTool = false): WireView {
    const request = (seq: number, t: number, id: string, more: Partial<HttpRequestFields>): HistoryEvent =>
      ({
        seq,
        t,
        type: 'http_request',
        ...{
          request: id,
          tool: CHAT,
          kind: 'model',
          purpose: 'call',
          call: `${CHAT}#1`,
          attempt: 1,
          callNumber: 1,
          groupedBy: 'new',
          method: 'POST',
          url: 'https://api.openai.com/v1/chat/completions',
          bodyDigest: 'd',
          sdkRetryCount: 0,
        },
        ...more,
      }) as HistoryEvent;
    return new WireView([
      request(0, 0, 'http-1', {}),
      {
        seq: 1,
        t: 0,
        type: 'response',
        request: 'http-1',
        tool: CHAT,
        result: 'error',
        status: 429,
        errorKind: 'rate_limit',
        retryAfter: '3',
        retryAfterMs: 3_000,
      },
      request(2, 500, 'http-2', {
        attempt: 2,
        ...second,
        ...(otherTool ? { tool: 'model:openai.responses', call: 'model:openai.responses#1' } : {}),
      }),
    ]);
  }

  it('names the SDK when its own retry came early', () => {
    const [problem] = modelRetryAfterProblems(history({ groupedBy: 'sdk', sdkRetryCount: 1 }));
    expect(problem?.message).toMatch(
      new RegExp(
        [
          String.raw`was sent 500ms after .* Retry-After: 3 \(3000ms, until t=3000ms\), `,
          String.raw`resent by the SDK's own retry \(x-stainless-retry-count: 1\) \(R9\)$`,
        ].join(''),
      ),
    );
    expect(problem?.evidence).toMatchObject({ rule: 'R9', endpoint: CHAT, resentBy: 'sdk' });
  });

  it('calls a request with another body a new model call, and leaves another model route alone', () => {
    expect(
      modelRetryAfterProblems(history({ call: `${CHAT}#2`, groupedBy: 'new', bodyDigest: 'e' }))[0]?.message,
    ).toMatch(/, a new model call \(R9\)$/);
    expect(modelRetryAfterProblems(history({}, true))).toEqual([]);
  });
});
