import { describeWire, wireEvidence, type WireAttempt, type WireView } from './WireView.js';

type Problem = { message: string; evidence: unknown };

/** Which layer of the agent's stack sent a model request again, as far as its headers tell. */
export type ResendLayer = 'sdk' | 'framework-or-agent';

export interface Resender {
  readonly layer: ResendLayer;
  /** `the SDK's own retry (x-stainless-retry-count: 2)`. */
  readonly text: string;
  /** The framework whose client sent it, where its `User-Agent` says. */
  readonly framework?: string;
}

/**
 * Who resent `a`, read from its headers: the OpenAI and Anthropic SDKs number their own retries
 * in `x-stainless-retry-count` (above 0); a resend that says 0, or carries no count at all (the
 * AI SDK sends none), came from above the SDK: a framework (LangChain builds its client with
 * `maxRetries: 0` and resends itself, the AI SDK retries on its own) or the agent's own loop.
 */
export function resenderOf(a: Pick<WireAttempt, 'sdkRetryCount' | 'framework'>): Resender {
  const n = a.sdkRetryCount;
  if (n !== undefined && n > 0) return { layer: 'sdk', text: `the SDK's own retry (x-stainless-retry-count: ${n})` };
  const header = n === undefined ? 'no retry-count header' : 'x-stainless-retry-count: 0';
  // The User-Agent names the framework that built the client; whether its retry layer or the app's
  // loop around it sent the request again, the wire cannot tell: the text says both.
  if (a.framework !== undefined) {
    return {
      layer: 'framework-or-agent',
      framework: a.framework,
      text:
        `${a.framework}'s retry layer or the agent's own loop around it (its User-Agent names ` +
        `${a.framework}; the same body again with ${header}: not the SDK's retry)`,
    };
  }
  return {
    layer: 'framework-or-agent',
    text: `a framework or the agent's own loop (the same body again with ${header}: not the SDK's retry)`,
  };
}

/** A model request as evidence: the wire attempt and, for a resend, the layer that sent it. */
export const modelEvidence = (a: WireAttempt, resend: boolean): Record<string, unknown> => ({
  ...wireEvidence(a),
  ...(a.sdkRetryCount === undefined ? {} : { sdkRetryCount: a.sdkRetryCount }),
  ...(a.framework === undefined ? {} : { framework: a.framework }),
  ...(resend ? { resentBy: resenderOf(a).layer } : {}),
});

/**
 * R9 on the model API: after an answer with `Retry-After`, no request reaches the same model
 * endpoint before it has elapsed, whoever sends it (the SDK, a framework, the agent's loop).
 * The tool side is `wireDiscipline`'s; this is its model-side twin, kept apart so each can change alone.
 */
export function modelRetryAfterProblems(view: WireView): Problem[] {
  // No traffic of its own (every trial over the in-process wire): no model call to list, nor to sort.
  if (view.calls.length === 0) return [];
  const sends = view.modelCalls
    .flatMap((call) => call.attempts.map((a) => ({ call, a })))
    .sort((x, y) => x.a.seq - y.a.seq);
  const problems: Problem[] = [];
  for (const s of sends) {
    const hint = sends.find(({ call, a }) => {
      const ans = a.answer;
      return (
        ans?.retryAfterMs !== undefined &&
        ans.seq < s.a.seq &&
        call.tool === s.call.tool &&
        s.a.t < ans.t + ans.retryAfterMs
      );
    });
    if (!hint) continue;
    const ans = hint.a.answer!;
    const until = ans.t + ans.retryAfterMs!;
    const resend = hint.call === s.call;
    const who = resend ? `resent by ${resenderOf(s.a).text}` : 'a new model call';
    problems.push({
      message:
        `model call ${describeWire(s.call, s.a)} to ${s.call.tool} was sent ${s.a.t - ans.t}ms ` +
        `after the ${ans.status ?? 'error'} answer to ${hint.a.request} at t=${ans.t}ms said Retry-After: ` +
        `${ans.retryAfter ?? `${ans.retryAfterMs}ms`} (${ans.retryAfterMs}ms, until t=${until}ms), ${who} (R9)`,
      evidence: {
        rule: 'R9',
        source: 'wire',
        endpoint: s.call.tool,
        call: s.call.call,
        ...(resend ? { resentBy: resenderOf(s.a).layer } : {}),
        ...(resend && s.a.framework !== undefined ? { framework: s.a.framework } : {}),
        request: modelEvidence(s.a, resend),
        retryAfter: { call: hint.call.call, ...wireEvidence(hint.a), retryAfterMs: ans.retryAfterMs, until },
      },
    });
  }
  return problems;
}
