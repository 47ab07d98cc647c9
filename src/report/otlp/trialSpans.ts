import type { HistoryEvent } from '../../core/index.js';
import type { TrialSummary } from '../../stats/trialResult.js';
import { replayCommand } from '../../runner/replay.js';
import { rulesCited } from '../rulesLink.js';
import { spanIdOf, traceIdOf, type TrialKey } from './otlpIds.js';
import type { SpanEventData, SpanValue, TraceSpan } from './traceSpan.js';

type Attrs = Record<string, SpanValue>;

/** A call (a tool call, or a model request made over HTTP) or one attempt of it, filled as the history goes by. */
interface Open {
  readonly id: string;
  readonly parent: string;
  /** An attempt's call id: a model request's tokens add up on its call. */
  readonly callId?: string;
  readonly name: string;
  readonly kind: TraceSpan['kind'];
  readonly startMs: number;
  endMs?: number;
  readonly attributes: Attrs;
  error?: string;
}

/** What the walk over one trial's history holds: the spans by call and by attempt, and the request each attempt sent. */
interface Walk {
  readonly key: TrialKey;
  readonly root: string;
  readonly model: string;
  readonly spans: Open[];
  readonly calls: Map<string, Open>;
  readonly attempts: Map<string, Open>;
  readonly byRequest: Map<string, Open>;
}

const attemptKey = (call: string, attempt: number): string => `${call}#${attempt}`;

function openCall(w: Walk, e: HistoryEvent, call: string, kind: 'tool' | 'model', tool: string): Open {
  const known = w.calls.get(call);
  if (known) return known;
  const attributes: Attrs =
    kind === 'model'
      ? { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': w.model, 'faultline.route': tool }
      : { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool, 'gen_ai.tool.call.id': call };
  const span: Open = {
    id: spanIdOf(w.key, `call:${call}`),
    parent: w.root,
    name: kind === 'model' ? `chat ${w.model}` : `execute_tool ${tool}`,
    kind: 'client',
    startMs: e.t,
    attributes: { ...attributes, ...(e.caller !== undefined && { 'faultline.caller': e.caller }) },
  };
  w.calls.set(call, span);
  w.spans.push(span);
  return span;
}

function openAttempt(w: Walk, e: HistoryEvent, call: Open, callId: string, attempt: number, request: string): Open {
  const known = w.attempts.get(attemptKey(callId, attempt));
  if (known) return known;
  const span: Open = {
    id: spanIdOf(w.key, `attempt:${callId}#${attempt}`),
    parent: call.id,
    callId,
    name: `attempt ${attempt}`,
    kind: 'client',
    startMs: e.t,
    attributes: { 'faultline.attempt': attempt, 'faultline.request': request },
  };
  w.attempts.set(attemptKey(callId, attempt), span);
  w.byRequest.set(request, span);
  w.spans.push(span);
  return span;
}

/** One history event's part in the spans; the events that carry nothing a span shows are passed over. */
function visit(w: Walk, e: HistoryEvent): void {
  switch (e.type) {
    case 'tool_call': {
      const call = openCall(w, e, e.call, 'tool', e.tool);
      call.attributes['faultline.risk'] = e.risk;
      return;
    }
    case 'http_request': {
      const call = openCall(w, e, e.call, e.kind, e.tool);
      const attempt = openAttempt(w, e, call, e.call, e.attempt, e.request);
      Object.assign(attempt.attributes, {
        'http.request.method': e.method,
        'url.full': e.url,
        'faultline.purpose': e.purpose,
      });
      return;
    }
    case 'attempt': {
      const call = openCall(w, e, e.call, 'tool', e.tool);
      openAttempt(w, e, call, e.call, e.attempt, e.request).attributes['faultline.purpose'] = e.purpose;
      return;
    }
    case 'fault': {
      const attempt = w.byRequest.get(e.request);
      if (attempt)
        Object.assign(attempt.attributes, { 'faultline.fault.kind': e.fault.kind, 'faultline.fault.rule': e.rule });
      return;
    }
    case 'response':
      return visitResponse(w, e);
    case 'attempt_end': {
      const attempt = w.attempts.get(attemptKey(e.call, e.attempt));
      if (!attempt) return;
      attempt.endMs = e.t;
      if (e.result === 'error') attempt.error = e.error?.message ?? 'error';
      if (e.error) attempt.attributes['error.type'] = e.error.kind;
      return;
    }
    case 'retry_wait': {
      const attempt = w.attempts.get(attemptKey(e.call, e.attempt));
      if (attempt) Object.assign(attempt.attributes, { 'faultline.wait_ms': e.ms, 'faultline.wait_reason': e.reason });
      return;
    }
    case 'give_up': {
      const call = w.calls.get(e.call);
      if (call) call.attributes['faultline.give_up'] = e.reason;
      return;
    }
    case 'outcome': {
      const call = w.calls.get(e.call);
      if (!call) return;
      call.endMs = e.t;
      Object.assign(call.attributes, { 'faultline.result': e.result, 'faultline.attempts': e.attempts });
      if (e.result !== 'ok') call.error = e.error?.message ?? e.result;
      return;
    }
    case 'model_turn':
      return visitTurn(w, e);
    default:
      return;
  }
}

function visitResponse(w: Walk, e: Extract<HistoryEvent, { type: 'response' }>): void {
  const attempt = w.byRequest.get(e.request);
  if (!attempt) return;
  attempt.endMs ??= e.t;
  Object.assign(attempt.attributes, {
    'faultline.response': e.result,
    ...(e.status !== undefined && { 'http.response.status_code': e.status }),
    ...(e.retryAfterMs !== undefined && { 'faultline.retry_after_ms': e.retryAfterMs }),
  });
  if (e.result !== 'ok') attempt.error ??= e.message ?? e.result;
  const call = attempt.callId === undefined ? undefined : w.calls.get(attempt.callId);
  if (call && e.usage) {
    const input = Number(call.attributes['gen_ai.usage.input_tokens'] ?? 0) + e.usage.input;
    const output = Number(call.attributes['gen_ai.usage.output_tokens'] ?? 0) + e.usage.output;
    Object.assign(call.attributes, { 'gen_ai.usage.input_tokens': input, 'gen_ai.usage.output_tokens': output });
  }
}

/** A turn of the stand-in model (an agent faultline holds in process asks it, no HTTP between): a `chat` span of its own. */
function visitTurn(w: Walk, e: Extract<HistoryEvent, { type: 'model_turn' }>): void {
  w.spans.push({
    id: spanIdOf(w.key, `turn:${e.seq}`),
    parent: w.root,
    name: `chat ${w.model}`,
    kind: 'internal',
    startMs: e.t,
    endMs: e.t,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': w.model,
      'faultline.turn': e.turn,
      'faultline.action': e.action,
      ...(e.calls && { 'faultline.tool_calls': e.calls.map((c) => c.tool) }),
      ...(e.waitMs !== undefined && { 'faultline.wait_ms': e.waitMs }),
      ...(e.caller !== undefined && { 'faultline.caller': e.caller }),
    },
  });
}

/** The failing or undecided checkers, as events on the trial's span, each with the rules its message cites. */
function findings(trial: TrialSummary, atMs: number): SpanEventData[] {
  return trial.checks.flatMap((c) =>
    c.verdict.valid === true
      ? []
      : [
          {
            name: `faultline.finding ${c.name}`,
            atMs,
            attributes: {
              'faultline.check': c.name,
              'faultline.verdict': c.verdict.valid === false ? 'failed' : 'unknown',
              'faultline.rules': rulesCited([c.verdict.message]),
              'faultline.message': c.verdict.message,
            },
          },
        ],
  );
}

function rootAttributes(trial: TrialSummary, clock: 'virtual' | 'real'): Attrs {
  return {
    'faultline.scenario': trial.scenario,
    'faultline.config': trial.config,
    'faultline.seed': trial.seed,
    'faultline.run_seed': trial.runSeed,
    'faultline.trial.index': trial.trialIndex,
    'faultline.verdict': trial.status,
    'faultline.failed': trial.status === 'failed' ? [...trial.failed] : [],
    'faultline.end': trial.end.kind,
    'faultline.replay': replayCommand(trial),
    'faultline.clock': clock,
    ...(trial.model !== undefined && { 'gen_ai.request.model': trial.model }),
    ...(trial.cost !== undefined && { 'faultline.cost': trial.cost }),
    ...(trial.refs.agent !== undefined && { 'faultline.agent': trial.refs.agent }),
  };
}

/** One kept trial as spans: the trial's own span first, then its calls, attempts and model turns in history order. */
export function trialSpans(trial: TrialSummary, clock: 'virtual' | 'real' = 'virtual'): TraceSpan[] {
  const key: TrialKey = { ...trial, runSeed: trial.runSeed };
  const traceId = traceIdOf(key);
  const root = spanIdOf(key, 'trial');
  const w: Walk = {
    key,
    root,
    model: trial.model ?? 'stand-in',
    spans: [],
    calls: new Map(),
    attempts: new Map(),
    byRequest: new Map(),
  };
  for (const e of trial.history) visit(w, e);
  const endMs = trial.history.reduce((m, e) => Math.max(m, e.t), 0);
  const failedStatus =
    trial.status === 'failed' ? trial.failed.join(', ') : trial.status === 'infra-error' ? trial.message : undefined;
  const top: TraceSpan = {
    name: `trial ${trial.scenario}`,
    traceId,
    spanId: root,
    kind: 'internal',
    startMs: 0,
    endMs,
    attributes: rootAttributes(trial, clock),
    events: findings(trial, endMs),
    status: failedStatus === undefined ? { code: 'unset' } : { code: 'error', message: failedStatus },
  };
  return [
    top,
    ...w.spans.map((s): TraceSpan => ({
      name: s.name,
      traceId,
      spanId: s.id,
      parentSpanId: s.parent,
      kind: s.kind,
      startMs: s.startMs,
      endMs: Math.max(s.startMs, s.endMs ?? endMs),
      attributes: s.attributes,
      events: [],
      status: s.error === undefined ? { code: 'unset' } : { code: 'error', message: s.error },
    })),
  ];
}
