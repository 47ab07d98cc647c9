import { ANSWER_USAGE } from './usage.js';
import { isAnswer, reply, streamReply } from '../../faults/http/HttpAnswer.js';
import type { HttpService } from '../../faults/http/HttpFaults.js';
import type { HttpRoute, RouteRequest, ServeContext } from '../../faults/http/HttpRoute.js';
import { holdOn } from '../../core/index.js';
import { anthropicMessages } from './anthropicMessages.js';
import { bodyValue, KEPT_RESPONSE_HEADERS, type Cassette, type CassetteEntry } from './Cassette.js';
import { forwardRequest } from './forwardRequest.js';
import type { ModelDialect } from './ModelResponder.js';
import { openaiChat } from './openaiChat.js';
import { openaiResponses } from './openaiResponses.js';
import { asksForStream, EVENT_STREAM, sseFrames } from '../../faults/http/sse.js';
import { ModelMistakes } from './mistakes/ModelMistakes.js';

/**
 * Where a model route's answers come from, other than a scripted model: a cassette (offline), or
 * the real endpoint through the run's live gateway (`--live`, `--record`). The API key lives only
 * in the gateway: it is set on the forwarded request, never given to the agent, kept in a
 * recording or recorded in the history.
 */
export type RecordedModelSource =
  | {
      readonly kind: 'cassette';
      readonly cassette: Cassette;
      readonly file: string;
      readonly onMiss: (message: string) => void;
    }
  /**
   * A live run's trial: each request goes to the run's live gateway (which holds the key, the
   * connection limit and the retries of the provider's own failures) and, with its answer, into
   * the trial's own `recording`. When the gateway gives up, `onInfraError` hears why, and this
   * request and every later one of the trial stay unanswered: the agent never sees the
   * provider's failure, and the trial ends `infra-error`.
   */
  | {
      readonly kind: 'gateway';
      readonly gateway: string;
      readonly recording: Cassette;
      readonly onInfraError: (message: string) => void;
    };

/** Headers between a trial and the live gateway (see `model/live/LiveGateway`). */
export const GATEWAY_UPSTREAM_HEADER = 'x-faultline-upstream';
export const GATEWAY_API_HEADER = 'x-faultline-api';
export const GATEWAY_INFRA_ERROR_HEADER = 'x-faultline-infra-error';

/** The status a request the cassette does not hold is refused with: a 400, which no SDK retries. */
export const CASSETTE_MISS_STATUS = 400;

const DIALECTS = { openai: [openaiChat, openaiResponses], anthropic: [anthropicMessages] } as const;

function kept(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of KEPT_RESPONSE_HEADERS) if (headers[name] !== undefined) out[name] = headers[name];
  return out;
}

/**
 * A recorded answer as it is sent again: a stream of server-sent events (kept as its text) is
 * streamed again event by event, paced and faulted like the scripted model's; anything else whole.
 * A live stream goes the same way: virtual time stands still while the real one is read (the
 * endpoint's own pacing is not kept), then its events go to the client one by one.
 */
function answerOf(entry: CassetteEntry): unknown {
  const { status, headers, body } = entry.response;
  const type = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  if (status < 300 && typeof body === 'string' && type.toLowerCase().startsWith(EVENT_STREAM))
    return streamReply(sseFrames(body), headers);
  return reply(status, body, headers);
}

/**
 * The model API at `baseUrl`, its routes (and so their fault-plan operations,
 * `model:openai.chat.completions`…) those of the scripted model, answered from `source`.
 */
export function recordedModelService(
  api: 'openai' | 'anthropic',
  baseUrl: string,
  source: RecordedModelSource,
): HttpService {
  const fetched = answerFrom(api, baseUrl, source);
  // The model's own mistakes are made on the answer the cassette or the provider gave, as the
  // stand-in makes them on its own (the same transforms of an answer, the request's tools, the rng).
  const mistakes = new ModelMistakes<ModelDialect>((dialect, body, whole) => {
    mistakes.answered(dialect, whole);
    return asksForStream(body) ? streamReply(dialect.stream(whole, body)) : whole;
  });
  // A mistake that finds nothing to work on leaves the answer it read here, for the route to serve
  // as it was: the cassette is not read again (a trial's recording counts its sendings), nor the
  // request sent to the provider twice. Kept per request: parallel model calls each find their own.
  const unused = new Map<string, unknown>();
  const route = (dialect: ModelDialect): HttpRoute => ({
    method: dialect.method,
    path: dialect.path,
    operation: dialect.operation,
    kind: 'model',
    usage: ANSWER_USAGE,
    input: (req: RouteRequest) => req,
    serve: async (input: unknown, ctx: ServeContext) => {
      const left = unused.has(ctx.request);
      const sent = left ? unused.get(ctx.request) : await fetched(dialect, input as RouteRequest, ctx);
      unused.delete(ctx.request);
      const whole = wholeAnswerOf(sent);
      if (whole !== undefined) mistakes.answered(dialect, whole);
      return sent;
    },
    mistake: async (fault, input, ctx, draws) => {
      const req = input as RouteRequest;
      const sent = await fetched(dialect, req, ctx);
      const whole = wholeAnswerOf(sent);
      const made =
        whole === undefined
          ? ({ kind: 'none' } as const)
          : await mistakes.make(dialect, fault, bodyValue(req.text), draws, () => Promise.resolve(whole));
      // An error, a cassette miss, a stream, or an answer the mistake finds nothing in: served as it was.
      if (made.kind === 'none') unused.set(ctx.request, sent);
      return made;
    },
  });
  return { baseUrl, routes: DIALECTS[api].map(route) };
}

/**
 * The cassette's or the live provider's answer to a request, as a route sends it: once the
 * gateway gave up, this request and every later one of the trial stay unanswered.
 */
function answerFrom(
  api: 'openai' | 'anthropic',
  baseUrl: string,
  source: RecordedModelSource,
): (dialect: ModelDialect, req: RouteRequest, ctx: ServeContext) => Promise<unknown> {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  let infraError = false;
  return async (dialect, req, ctx) => {
    const body = bodyValue(req.text);
    if (infraError) return new Promise<never>(() => undefined);
    if (source.kind === 'cassette') {
      const known = source.cassette.find(req.method, dialect.path, body);
      if (known) return answerOf(known);
      const message = source.cassette.missMessage(req.method, dialect.path, body, source.file);
      source.onMiss(message);
      return reply(CASSETTE_MISS_STATUS, { error: { type: 'faultline_cassette_miss', message } });
    }
    const query = req.query.toString();
    const url = `${base.origin}${prefix}${dialect.path}${query === '' ? '' : `?${query}`}`;
    const headers = { ...req.headers, [GATEWAY_UPSTREAM_HEADER]: url, [GATEWAY_API_HEADER]: api };
    // Real I/O: virtual time stands still until the answer is here (and while the gateway waits
    // for a connection or retries), so no client timer fires in the gap.
    const answer = await holdOn(ctx.clock)(
      forwardRequest(`${source.gateway}${dialect.path}`, req.method, headers, req.text, { keepAlive: false }),
    );
    if (answer.headers[GATEWAY_INFRA_ERROR_HEADER] !== undefined) {
      infraError = true;
      const parsed = bodyValue(answer.body) as { error?: { message?: string } } | string | null;
      source.onInfraError(
        typeof parsed === 'object' && parsed?.error?.message !== undefined
          ? parsed.error.message
          : `the live gateway gave up: ${answer.status}`,
      );
      return new Promise<never>(() => undefined);
    }
    const entry: CassetteEntry = {
      request: { method: req.method, path: dialect.path, body },
      response: { status: answer.status, headers: kept(answer.headers), body: bodyValue(answer.body) },
    };
    source.recording.add(entry);
    return answerOf(entry);
  };
}

/** A successful JSON answer's body, parsed: what a mistake is made of (none for an error or a stream). */
function wholeAnswerOf(answer: unknown): unknown {
  if (!isAnswer(answer) || answer.kind !== 'respond' || answer.status < 200 || answer.status > 299) return undefined;
  if (!(answer.headers['content-type'] ?? '').includes('json')) return undefined;
  try {
    return JSON.parse(answer.body) as unknown;
  } catch {
    return undefined;
  }
}
