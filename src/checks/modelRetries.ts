import { failAll, type ErrorKind, type HistoryEvent, type Verdict } from '../core/index.js';
import type { Checker } from './checker.js';
import { list } from './format.js';
import { resenderOf } from './modelResends.js';

/** Operations named `model:…` are model API endpoints (the HTTP adapters' convention), not tools (R3). */
export const MODEL_OPERATION_PREFIX = 'model:';

/** One logical model call as it went over the wire: every HTTP request the SDK sent for it. */
export interface ModelCallLoad {
  readonly call: string;
  /** `model:openai.chat.completions`, `model:anthropic.messages`… */
  readonly endpoint: string;
  /** Requests sent, the SDK's own hidden retries included (R10). */
  readonly requests: number;
  /** What each failed request answered, in order. */
  readonly errors: readonly {
    readonly request: string;
    readonly attempt?: number;
    readonly kind: ErrorKind;
    readonly t: number;
    readonly seq: number;
  }[];
  /** Request ids in the order they were answered. */
  readonly requestIds: readonly string[];
}

/** Groups model API traffic into logical calls: one SDK call and all the retries it made below the agent. */
export function modelCallLoads(history: readonly HistoryEvent[]): ModelCallLoad[] {
  const calls = new Map<
    string,
    { call: string; endpoint: string; requestIds: string[]; errors: ModelCallLoad['errors'][number][] }
  >();
  const modelRequests = new Set<string>();
  for (const e of history) {
    if (e.type === 'response' && e.tool.startsWith(MODEL_OPERATION_PREFIX)) {
      modelRequests.add(e.request);
      const call = e.call ?? e.request;
      let entry = calls.get(call);
      if (!entry) calls.set(call, (entry = { call, endpoint: e.tool, requestIds: [], errors: [] }));
      entry.requestIds.push(e.request);
    }
    if (e.type === 'model_error' && e.call !== undefined) {
      calls.get(e.call)?.errors.push({
        request: e.request ?? '',
        ...(e.attempt === undefined ? {} : { attempt: e.attempt }),
        kind: e.error.kind,
        t: e.t,
        seq: e.seq,
      });
    }
  }
  return [...calls.values()].map((c) => ({ ...c, requests: c.requestIds.length }));
}

/** After these, the same model request cannot succeed: resending it is a retry that only adds load. */
const STOP_KINDS: readonly ErrorKind[] = ['quota_exceeded', 'permission_denied', 'invalid_argument', 'not_found'];

/**
 * R3, R5, R10 for the model API: an SDK that retries an exhausted quota (the OpenAI and
 * Anthropic SDKs retry every 429, `insufficient_quota` included) is flagged, as is a model
 * call whose requests exceed the scenario's deliveries-per-operation limit. Model failures
 * are judged here, apart from tool failures.
 */
export const modelRetries: Checker = {
  name: 'model-retries',
  rules: ['R3', 'R5', 'R10'],
  description:
    'No model request is resent after an exhausted quota or a permanent error, and the SDK’s hidden ' +
    'retries stay within the deliveries-per-operation limit.',
  check(record, expect): Verdict {
    const problems: { message: string; evidence: unknown }[] = [];
    const limit = expect.budget.maxDeliveriesPerOperation;
    const retryCounts = sdkRetryCounts(record.history);
    for (const load of modelCallLoads(record.history)) {
      const stop = load.errors.find((e) => STOP_KINDS.includes(e.kind));
      const after = stop ? load.requestIds.slice(load.requestIds.indexOf(stop.request) + 1) : [];
      if (stop && after.length > 0) {
        const rule = stop.kind === 'quota_exceeded' ? 'R5' : 'R7';
        const why =
          rule === 'R5'
            ? 'waiting does not help an exhausted quota; stop and hand over to a person (R5)'
            : 'permanent errors are never retried (R7)';
        const by = after.map((request) => ({ request, ...resenderOf(retryCounts.get(request) ?? {}) }));
        problems.push({
          message:
            `model call ${load.call} to ${load.endpoint} was resent ${after.length} time(s) ` +
            `after its ${stop.kind} answer to ${stop.request} at t=${stop.t}ms ` +
            `(${list(by.map((b) => `${b.request} by ${b.text}`))}): ${why}`,
          evidence: {
            rule,
            call: load.call,
            endpoint: load.endpoint,
            stop,
            resent: after,
            resentBy: by.map(({ request, layer, framework }) => ({
              request,
              layer,
              ...(framework === undefined ? {} : { framework }),
            })),
          },
        });
      }
      if (limit !== undefined && load.requests > limit) {
        problems.push({
          message:
            `model call ${load.call} sent ${load.requests} requests to ${load.endpoint} (limit ` +
            `${limit}): the SDK retried below the agent; retry at one layer only (R10)`,
          evidence: {
            rule: 'R10',
            call: load.call,
            endpoint: load.endpoint,
            requests: load.requests,
            requestIds: load.requestIds,
            limit,
          },
        });
      }
    }
    return failAll(problems);
  },
};

/**
 * Each model request's `x-stainless-retry-count` and framework, as its `http_request` event recorded them (none for
 * the in-process wire).
 */
function sdkRetryCounts(history: readonly HistoryEvent[]): Map<string, { sdkRetryCount?: number; framework?: string }> {
  const out = new Map<string, { sdkRetryCount?: number; framework?: string }>();
  for (const e of history) {
    if (e.type !== 'http_request' || e.kind !== 'model') continue;
    out.set(e.request, {
      ...(e.sdkRetryCount === undefined ? {} : { sdkRetryCount: e.sdkRetryCount }),
      ...(e.framework === undefined ? {} : { framework: e.framework }),
    });
  }
  return out;
}
