import { stringify } from 'yaml';
import { FaultlineError, FaultlineErrorCode } from '../../core/index.js';
import { REDACTED, isSecretName, redactText, scrubSecrets } from '../../core/secretText.js';
import { readOtlpSpans, type FlatSpan } from './otlpSpans.js';
import { roleOf, showValue } from './spanReading.js';
import { riskOf, tracedFaults, type Risk } from './tracedFaults.js';
import { tracedRun, type TracedCall, type TracedRun } from './tracedRun.js';
import { effectOf, serviceModuleText, type TracedTool } from './serviceModule.js';

export interface FromTraceRequest {
  /** The file's text and its name as the user gave it (for messages). */
  readonly text: string;
  readonly file: string;
  readonly traceId?: string;
  /** The scenario's name (a slug) and the service module's path from the scenario file (`./x.service.mjs`). */
  readonly name?: string;
  readonly serviceModule: string;
}

export interface FromTraceResult {
  readonly name: string;
  readonly traceId: string;
  readonly scenarioText: string;
  readonly serviceText: string;
  /** One line each: what could not be mapped. */
  readonly notes: readonly string[];
}

const bad = (message: string): FaultlineError => new FaultlineError(FaultlineErrorCode.ScenarioInvalid, message);

/** The spans of the one trace to import: the only one, or `traceId`'s; else an error listing the traces. */
function pickTrace(spans: readonly FlatSpan[], file: string, traceId: string | undefined): FlatSpan[] {
  const traces = new Map<string, FlatSpan[]>();
  for (const s of spans) traces.set(s.traceId, [...(traces.get(s.traceId) ?? []), s]);
  // At most 20 listed: a run's export holds a trace per kept trial.
  const listing = (): string =>
    [...traces.entries()]
      .slice(0, 20)
      .map(([id, ss]) => {
        const root = ss.find((s) => s.parentSpanId === undefined) ?? ss[0]!;
        return `  ${id}  ${JSON.stringify(root.name)}, ${ss.length} span${ss.length === 1 ? '' : 's'}`;
      })
      .join('\n') + (traces.size > 20 ? `\n  … and ${traces.size - 20} more` : '');
  if (traces.size === 0) throw bad(`${file}: resourceSpans: no spans; expected the spans of one trace`);
  if (traceId !== undefined) {
    const chosen = traces.get(traceId.toLowerCase());
    if (chosen) return chosen;
    throw bad(`--trace-id ${traceId}: no such trace in ${file}; expected one of:\n${listing()}`);
  }
  if (traces.size > 1) throw bad(`${file}: holds ${traces.size} traces; pick one with --trace-id:\n${listing()}`);
  return [...traces.values()][0]!;
}

/**
 * A scenario that reproduces a traced run: its tools declared (a service module), the faults its tries
 * met as the plan, the model's tool calls as the stand-in's script, the writes it saw as the goal.
 * @throws FaultlineError naming the file, the path in it and what was expected.
 */
export function scenarioFromTrace(request: FromTraceRequest): FromTraceResult {
  const spans = pickTrace(readOtlpSpans(request.text, request.file), request.file, request.traceId);
  if (!spans.some((s) => roleOf(s) !== 'other'))
    throw bad(
      `${request.file}: trace ${spans[0]!.traceId} has no GenAI spans; expected spans with gen_ai.operation.name ` +
        `chat or execute_tool (or the openai instrumentations' openinference.span.kind LLM / TOOL, llm.request.type chat)`,
    );
  // R13: a trace may carry what the agent sent. Scrubbed as data first (a field named like a credential is one,
  // whatever its value looks like, and YAML prints no quotes for the text pass to see), then as text below.
  const run = scrubbedRun(tracedRun(spans));
  if (run.calls.length === 0)
    throw bad(
      `${request.file}: trace ${run.traceId} holds ${run.chats} model call${run.chats === 1 ? '' : 's'} and no tool call; ` +
        `expected execute_tool spans (gen_ai.tool.name) or tool calls in a chat span's answer`,
    );
  const name = request.name ?? `trace-${run.traceId.slice(0, 8)}`;
  const notes = [...run.notes];
  const tools = toolsOf(run.calls);
  const risks = new Map<string, Risk>(tools.map((t) => [t.name, t.risk]));
  const faults = tracedFaults(run.calls, risks, notes);
  const data = scenarioData(run, name, request.serviceModule, tools, faults);
  // The second pass, over the text: what the header and comments say, and shapes the data pass cannot see.
  return {
    name,
    traceId: run.traceId,
    scenarioText: redactText(
      `${header(run, request.file, faults.length)}${stringify(data, { lineWidth: 0 })}${commentBlock(run)}`,
    ),
    serviceText: redactText(serviceModuleText(name, tools, run.traceId)),
    notes: notes.map((n) => redactText(n)),
  };
}

/** `run` with its tools' inputs and results, its task and its unmapped attributes' values scrubbed (R13). */
function scrubbedRun(run: TracedRun): TracedRun {
  return {
    ...run,
    task: run.task === undefined ? undefined : redactText(run.task),
    calls: run.calls.map((c) => ({ ...c, input: scrubSecrets(c.input), result: scrubSecrets(c.result) })),
    unknown: run.unknown.map((u) => ({ ...u, value: scrubSecrets(u.value) })),
  };
}

function toolsOf(calls: readonly TracedCall[]): TracedTool[] {
  const names = [...new Set(calls.map((c) => c.tool))];
  return names.map((name) => {
    const own = calls.filter((c) => c.tool === name);
    return { name, risk: riskOf(own), calls: own };
  });
}

function scenarioData(
  run: TracedRun,
  name: string,
  serviceModule: string,
  tools: readonly TracedTool[],
  faults: ReturnType<typeof tracedFaults>,
): Record<string, unknown> {
  // The goal: each write the trace saw end well, once (R29: judged on the final state, not the agent's word).
  const effects: Record<string, number> = {};
  for (const call of run.calls) {
    const risk = tools.find((t) => t.name === call.tool)?.risk;
    if (risk === 'read' || !call.attempts.some((a) => !a.failed)) continue;
    effects[effectOf(call.tool)] = (effects[effectOf(call.tool)] ?? 0) + 1;
  }
  const used = [...new Set(run.calls.map((c) => c.tool))].join(', ');
  return {
    name,
    title: `Trace ${run.traceId}${run.service === undefined ? '' : ` of ${run.service}`}, as a scenario`,
    description:
      `Imported by faultline from-trace: the ${run.calls.length} tool call${run.calls.length === 1 ? '' : 's'} ` +
      `the traced agent made (${used}), the faults its tries met, and the writes it saw succeed as the goal.`,
    services: [serviceModule],
    faults,
    agent: {
      kind: 'scripted',
      task: run.task ?? `Do what the agent of trace ${run.traceId} did: ${used}.`,
      plan: { steps: run.calls.map((c) => ({ tool: c.tool, input: c.input ?? {} })) },
    },
    ...(Object.keys(effects).length > 0 && { goal: { effects } }),
  };
}

function header(run: TracedRun, file: string, faults: number): string {
  const lines = [
    `Written by faultline from-trace ${file} (trace ${run.traceId}${run.model === undefined ? '' : `, model ${run.model}`}).`,
    `${plural(run.calls.length, 'tool call')}, ${plural(faults, 'fault rule')}: each rule is a try that failed or was slow`,
    'in the trace, matched by the tool, its call number and the try number. A timeout on a write is taken as',
    'committed with its answer lost (partial_write, R18): that is when a resend duplicates it.',
    "The stand-in replays the model's tool calls; how the retries go is the configuration's: run it with the",
    "one that stands for the traced agent's (naive: a retry without an idempotency key).",
  ];
  return `${lines.map((l) => `# ${l}`).join('\n')}\n`;
}

/** The attributes no reader took, kept where a reader of the scenario sees them. */
function commentBlock(run: TracedRun): string {
  if (run.unknown.length === 0) return '';
  const lines = run.unknown.map((u) => {
    const value = isSecretName(u.key.split('.').pop() ?? '') ? REDACTED : showValue(u.value);
    return `#   ${u.key} = ${value} (span "${u.span}"${u.spans > 1 ? ` and ${u.spans - 1} more` : ''})`;
  });
  return `\n# Attributes of the trace faultline does not map:\n${lines.join('\n')}\n`;
}

const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
