import { redactText } from '../../core/secretText.js';
import type { FlatSpan } from './otlpSpans.js';
import { isObject, isRead, num, parseJson, proposedCalls, roleOf, str, userMessage } from './spanReading.js';

/** One try of a tool call as the trace shows it. */
export interface TracedAttempt {
  readonly ms: number;
  readonly status: number | undefined;
  readonly errorType: string | undefined;
  readonly failed: boolean;
  readonly retryAfterMs: number | undefined;
  readonly keyed: boolean;
}

/** One logical tool call: the model's request and the tries that carried it out. */
export interface TracedCall {
  readonly tool: string;
  readonly id: string | undefined;
  /** The arguments as an object, or undefined when the trace holds none (or not an object). */
  readonly input: Record<string, unknown> | undefined;
  readonly result: unknown;
  readonly risk: string | undefined;
  readonly attempts: readonly TracedAttempt[];
  /** Where the call came from, for messages: a span's path in the file. */
  readonly where: string;
}

export interface UnknownAttribute {
  readonly key: string;
  readonly value: FlatSpan['attributes'][string];
  readonly span: string;
  readonly spans: number;
}

/** What one trace says about the run it recorded. */
export interface TracedRun {
  readonly traceId: string;
  readonly service: string | undefined;
  readonly model: string | undefined;
  readonly task: string | undefined;
  readonly chats: number;
  readonly calls: readonly TracedCall[];
  readonly unknown: readonly UnknownAttribute[];
  /** One line each: what the importer could not map. */
  readonly notes: readonly string[];
}

const named = (s: FlatSpan): string => `span "${s.name}" (${s.path})`;

/** The run one trace records: its model turns, tool calls with their tries, and the attributes nobody reads. */
export function tracedRun(spans: readonly FlatSpan[]): TracedRun {
  const ordered = [...spans].sort((a, b) => a.startMs - b.startMs);
  const byId = new Map(ordered.map((s) => [s.spanId, s]));
  const ancestorRole = (s: FlatSpan): { role: string; span: FlatSpan } | undefined => {
    for (let p = s.parentSpanId && byId.get(s.parentSpanId), hops = 0; p && hops < 1000; hops++) {
      const role = roleOf(p);
      if (role !== 'other') return { role, span: p };
      p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined;
    }
    return undefined;
  };
  const notes: string[] = [];
  const chats = ordered.filter((s) => roleOf(s) === 'chat');
  const tools = ordered.filter((s) => roleOf(s) === 'execute_tool' && ancestorRole(s)?.role !== 'execute_tool');
  const triesOf = new Map<FlatSpan, FlatSpan[]>(tools.map((t) => [t, []]));
  for (const s of ordered) {
    if (roleOf(s) !== 'other') continue;
    const up = ancestorRole(s);
    if (up?.role === 'execute_tool') {
      if (looksLikeTry(s)) triesOf.get(up.span)?.push(s);
    } else if (up?.role === 'chat') {
      if (tryFailed(s)) notes.push(`${named(s)}: a failed model-API request is not a tool fault (R3); not mapped`);
    } else {
      const op = str(s, 'gen_ai.operation.name');
      notes.push(
        op === undefined
          ? `${named(s)}: not a GenAI span (no gen_ai.operation.name chat or execute_tool); left out`
          : `${named(s)}: gen_ai.operation.name ${op} is not mapped (chat and execute_tool are); left out`,
      );
    }
  }
  const calls = callsOf(chats, tools, triesOf, notes);
  const model = chats.map((c) => str(c, 'gen_ai.request.model') ?? str(c, 'llm.model_name')).find((m) => m);
  const service = ordered.map((s) => s.resource['service.name']).find((v): v is string => typeof v === 'string');
  return {
    traceId: ordered[0]?.traceId ?? '',
    service,
    model,
    task: chats.map(userMessage).find((t) => t !== undefined),
    chats: chats.length,
    calls,
    unknown: unknownAttributes(ordered),
    notes,
  };
}

/** Tool calls in order: each execute_tool span, and each call a chat span proposed that no execute_tool span carried out. */
function callsOf(
  chats: readonly FlatSpan[],
  tools: readonly FlatSpan[],
  triesOf: ReadonlyMap<FlatSpan, FlatSpan[]>,
  notes: string[],
): TracedCall[] {
  const proposed = chats.flatMap((c) => proposedCalls(c).map((p) => ({ ...p, at: c.startMs, where: c.path })));
  const used = new Set<number>();
  const calls: { at: number; call: TracedCall }[] = [];
  for (const span of tools) {
    const tool = str(span, 'gen_ai.tool.name') ?? str(span, 'tool.name') ?? span.name.replace(/^execute_tool /, '');
    const id = str(span, 'gen_ai.tool.call.id');
    // The model's own proposal: by the call's id, else the first unused one of the same tool.
    const match = proposed.findIndex((p, i) => !used.has(i) && (id !== undefined ? p.id === id : p.tool === tool));
    if (match >= 0) used.add(match);
    const args =
      str(span, 'gen_ai.tool.call.arguments') ??
      str(span, 'tool.parameters') ??
      str(span, 'input.value') ??
      proposed[match]?.arguments;
    const tries = triesOf.get(span) ?? [];
    calls.push({
      at: span.startMs,
      call: {
        tool,
        id,
        input: inputOf(args, `${named(span)}`, notes),
        result: parseJson(str(span, 'gen_ai.tool.call.result') ?? str(span, 'output.value')),
        risk: str(span, 'faultline.risk'),
        attempts: (tries.length > 0 ? tries : [span]).map(attemptOf),
        where: span.path,
      },
    });
  }
  proposed.forEach((p, i) => {
    if (used.has(i)) return;
    const where = `the model's call of ${p.tool} (${p.where})`;
    notes.push(`${where}: no execute_tool span carried it out; taken as one try that succeeded`);
    const attempt: TracedAttempt = {
      ms: 0,
      status: undefined,
      errorType: undefined,
      failed: false,
      retryAfterMs: undefined,
      keyed: false,
    };
    calls.push({
      at: p.at,
      call: {
        tool: p.tool,
        id: p.id,
        input: inputOf(p.arguments, where, notes),
        result: undefined,
        risk: undefined,
        attempts: [attempt],
        where: p.where,
      },
    });
  });
  return calls.sort((a, b) => a.at - b.at).map((c) => c.call);
}

function inputOf(args: string | undefined, where: string, notes: string[]): Record<string, unknown> | undefined {
  if (args === undefined) {
    notes.push(`${where}: no arguments in the trace (gen_ai.tool.call.arguments); the step's input is left empty`);
    return undefined;
  }
  const value = parseJson(args);
  if (isObject(value)) return value;
  // Redacted before the cut: a cut can split a credential's shape (`password=…`) and hide it from the text pass.
  notes.push(
    `${where}: the arguments are not a JSON object (${redactText(args).slice(0, 60)}); the step's input is left empty`,
  );
  return undefined;
}

const looksLikeTry = (s: FlatSpan): boolean =>
  str(s, 'http.response.status_code') !== undefined ||
  str(s, 'http.request.method') !== undefined ||
  str(s, 'error.type') !== undefined ||
  str(s, 'faultline.attempt') !== undefined ||
  s.status.error;

const tryFailed = (s: FlatSpan): boolean => s.status.error || (num(s, 'http.response.status_code') ?? 0) >= 400;

function attemptOf(s: FlatSpan): TracedAttempt {
  const status = num(s, 'http.response.status_code');
  const exception = s.events.find((e) => e.name === 'exception')?.attributes['exception.type'];
  const errorType =
    str(s, 'error.type') ??
    (typeof exception === 'string' ? exception : undefined) ??
    (s.status.error ? s.status.message : undefined) ??
    (str(s, 'faultline.response') === 'lost' ? 'timeout' : undefined);
  const retryAfter = num(s, 'http.response.header.retry-after');
  return {
    ms: Math.max(0, Math.round(s.endMs - s.startMs)),
    status,
    errorType,
    failed: s.status.error || (status !== undefined && status >= 400) || str(s, 'error.type') !== undefined,
    retryAfterMs: num(s, 'faultline.retry_after_ms') ?? (retryAfter === undefined ? undefined : retryAfter * 1000),
    keyed: str(s, 'http.request.header.idempotency-key') !== undefined,
  };
}

/** Each attribute no reader takes, once per key (its first value), with how many spans carry it. */
function unknownAttributes(spans: readonly FlatSpan[]): UnknownAttribute[] {
  const seen = new Map<string, UnknownAttribute>();
  for (const s of spans)
    for (const [key, value] of Object.entries(s.attributes)) {
      if (isRead(key)) continue;
      const had = seen.get(key);
      seen.set(key, had ? { ...had, spans: had.spans + 1 } : { key, value, span: s.name, spans: 1 });
    }
  return [...seen.values()];
}
