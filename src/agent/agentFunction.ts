import { z } from 'zod';
import {
  AGENT_OUTCOMES,
  type AgentOutcomeKind,
  type Claim,
  type Clock,
  type EventOf,
  type History,
} from '../core/index.js';
import type { Mutable } from '../core/Mutable.js';
import { setOwnKey } from '../core/setOwnKey.js';
import type { ToolResult } from '../runtime/result.js';
import type { ToolExecutor } from '../runtime/ToolExecutor.js';
import type { LoopEnd } from './loop.js';
import type { ModelAction } from '../model/model.js';
import type { CheckpointStore } from '../core/kv.js';
import { agentKv, FIRST_START, never, type AgentKv, type AgentStart } from './agentKv.js';

/** What an agent function is given: the tools by name (through the execution layer), and time. */
export interface AgentContext {
  readonly task: string;
  /** This agent's index (0-based) when the scenario runs many agents (`agents: N`); 0 with one. */
  readonly agent: number;
  readonly tools: Readonly<Record<string, (input: unknown) => Promise<ToolResult>>>;
  /** Sleeps on the trial clock (recorded as `agent_wait`). */
  wait(ms: number): Promise<void>;
  /** Virtual milliseconds since the agent started. */
  now(): number;
  /** True when this start follows a crash of the agent (the scenario's `crash.agent`): resume from what you saved. */
  readonly restart: boolean;
  /** How many times the agent was started again before this start (0 on the first). */
  readonly restartCount: number;
  /** The trial's key-value checkpoint store: it survives the agent's crash, not the trial. */
  readonly kv: AgentKv;
}

/** What an agent function reports when it stops (R29: its claims are checked against the world). */
export interface AgentFnResult {
  readonly outcome: AgentOutcomeKind;
  readonly message?: string;
  readonly claims?: readonly Claim[];
}

const AgentFnResultSchema = z.object({
  outcome: z.enum(AGENT_OUTCOMES),
  message: z.string().optional(),
  claims: z
    .array(
      z.object({
        subject: z.string().regex(/^[^:]+:.+$/, 'a subject is service:businessKey'),
        status: z.enum(['succeeded', 'failed', 'unknown']),
        note: z.string().optional(),
      }),
    )
    .optional(),
});

/** Your own agent as a plain async function: no model, no turns. */
export type AgentFn = (ctx: AgentContext) => Promise<AgentFnResult>;

export interface AgentFunctionOptions {
  readonly executor: ToolExecutor;
  readonly task: string;
  readonly history: History;
  readonly clock: Clock;
  /** Passed to the executor so all callers of a trial share one retry budget (R11). */
  readonly caller?: string;
  /** This agent's index in a many-agent trial (default 0). */
  readonly agent?: number;
  /** The trial's checkpoint store (`ctx.kv`); without one, a store of this run's own. */
  readonly kv?: CheckpointStore;
  /** Which start this is, and whether it was abandoned (default: the first, alive). */
  readonly start?: AgentStart;
}

/**
 * Types an agent function; nothing more.
 *
 * @example
 * export default defineAgent(async ({ tools }) => {
 *   const r = await tools['create_order']!({ ref: 'ref-1' });
 *   return { outcome: r.kind === 'ok' ? 'completed' : 'failed' };
 * });
 */
export const defineAgent = (fn: AgentFn): AgentFn => fn;

/**
 * Runs an agent function against the executor and records its end. Exceptions from the
 * function propagate: the runner records them as a crashed trial. `turns` is 0: there is no model.
 */
export async function runAgentFunction(fn: AgentFn, options: AgentFunctionOptions): Promise<LoopEnd> {
  const { executor, task, history, clock } = options;
  // One object for both: the calls' options and what the agent's waits record are the same `{ caller }`.
  const who = options.caller === undefined ? {} : { caller: options.caller };
  const callOptions = who;
  // Key by key, as Object.fromEntries would set them (a "__proto__" name stays a key): without its entry arrays.
  const named: Record<string, (input: unknown) => Promise<ToolResult>> = {};
  for (const t of executor.tools) {
    setOwnKey(named, t.name, (input: unknown): Promise<ToolResult> => {
      // An abandoned start's call never reaches the execution layer, so it records nothing.
      if (options.start?.alive() === false) return never();
      const sent = asSent(t.name, input);
      return sent.ok ? executor.call(t.name, sent.input, callOptions) : Promise.reject(sent.error);
    });
  }
  const tools = Object.freeze(named);
  const start = clock.now();
  const life = options.start ?? FIRST_START;
  const ctx: AgentContext = {
    task,
    agent: options.agent ?? 0,
    tools,
    wait: async (ms) => {
      if (!life.alive()) return never();
      history.record({ type: 'agent_wait', ms, ...who });
      await clock.sleep(ms);
    },
    now: () => clock.now() - start,
    restart: life.restart > 0,
    restartCount: life.restart,
    kv: agentKv(options.kv ?? new Map<string, string>(), life),
  };
  const returned = await fn(ctx);
  // An abandoned start that still returns (a branch that was not waiting on the dropped call) ends nothing.
  if (!life.alive()) return never();
  return endOf(returned, history, options.caller);
}

/**
 * How deep a tool input may nest. Deeper than JSON APIs take (serde_json stops at 128, Ruby's
 * JSON at 100, Python's recursion at 1,000), and shallow enough for every walk faultline makes
 * over a history (the checkers, the scrub, the reports' JSON) to stay far from the stack's end.
 */
export const MAX_INPUT_DEPTH = 1_000;
// JSON.stringify's own RangeError and the depth check give the one reason.
const TOO_DEEP = `it nests deeper than ${MAX_INPUT_DEPTH.toLocaleString('en-US')} levels`;

/**
 * A tool input as a client sends it: its JSON, read back. The agent's own objects (a class
 * instance, a Date, a getter) become the data the wire would carry, and the history, the
 * checkers and the scrub read plain data. An input JSON cannot print (a cycle, a BigInt, a getter
 * or toJSON that throws) or that nests deeper than `MAX_INPUT_DEPTH` is the agent's TypeError, as
 * `fetch` with such a body would throw.
 */
function asSent(tool: string, input: unknown): Sent {
  let text: string | undefined;
  try {
    text = JSON.stringify(input);
  } catch (error) {
    if (error instanceof RangeError) return refused(tool, TOO_DEEP);
    return refused(tool, error instanceof Error ? error.message : String(error));
  }
  const sent = text === undefined ? undefined : (JSON.parse(text) as unknown);
  return deeperThan(sent, MAX_INPUT_DEPTH) ? refused(tool, TOO_DEEP) : { ok: true, input: sent };
}

type Sent = { readonly ok: true; readonly input: unknown } | { readonly ok: false; readonly error: TypeError };

// A function of its own, not a closure `asSent` made on every call of every tool, refused or not.
function refused(tool: string, why: string): Sent {
  return { ok: false, error: new TypeError(`tools['${tool}'](input): the input cannot be sent as JSON (${why})`) };
}

/** Whether JSON data nests more than `levels` objects or arrays deep (it stops looking there). */
function deeperThan(v: unknown, levels: number): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (levels === 0) return true;
  for (const item of Array.isArray(v) ? v : Object.values(v)) if (deeperThan(item, levels - 1)) return true;
  return false;
}

const OUTCOMES: ReadonlySet<unknown> = new Set(AGENT_OUTCOMES);
type ParsedEnd = z.output<typeof AgentFnResultSchema>;

/**
 * The common end, `{ outcome }` or `{ outcome, message }` as a plain object without claims, read as the schema reads it
 * (each field by name; other keys ignored); `undefined` for anything else, which the schema parses. A crowd ends a
 * thousand agents a trial, and the schema's parse built a result object and its checks' state for each.
 */
export function plainEnd(returned: unknown): ParsedEnd | undefined {
  if (typeof returned !== 'object' || returned === null || Object.getPrototypeOf(returned) !== Object.prototype)
    return undefined;
  const { outcome, message, claims } = returned as { outcome?: unknown; message?: unknown; claims?: unknown };
  if (claims !== undefined || !OUTCOMES.has(outcome) || (message !== undefined && typeof message !== 'string'))
    return undefined;
  return message === undefined
    ? { outcome: outcome as AgentOutcomeKind }
    : { outcome: outcome as AgentOutcomeKind, message };
}

/** What the agent function returned, through its schema; a TypeError saying what was wrong otherwise. */
export function parsedEnd(returned: unknown): ParsedEnd {
  const parsed = AgentFnResultSchema.safeParse(returned);
  if (!parsed.success) {
    throw new TypeError(
      `the agent function returned ${JSON.stringify(returned) ?? String(returned)}; expected { outcome: ` +
        `${AGENT_OUTCOMES.join(' | ')}, message?, claims? }: ` +
        `${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

/**
 * Records what an agent's own code reported when it stopped, as `agent_end`. A malformed
 * report ends the trial as crashed, with what was wrong, instead of a TypeError deep in a checker.
 * `standIn`: the scenario's stand-in model's last final answer, if it gave one; a claim the agent
 * reports as that answer made it is marked `by: 'stand-in'`, and so is the end when the agent
 * passed the answer's outcome and message on, so a verdict on it can say whose word it was.
 */
export function endOf(
  returned: unknown,
  history: History,
  caller?: string,
  standIn?: Extract<ModelAction, { kind: 'final' }>,
): LoopEnd {
  const result = plainEnd(returned) ?? parsedEnd(returned);
  const message = result.message ?? '';
  const claims = claimsOf(result.claims, standIn);
  const passedOn = standIn !== undefined && standIn.outcome === result.outcome && standIn.message === message;
  // Built key by key in the order the spreads gave, and stamped in place: a crowd ends a thousand agents a trial.
  const event: Mutable<EventOf<'agent_end'>> = {
    seq: 0,
    t: 0,
    type: 'agent_end',
    outcome: result.outcome,
    claims,
    message,
  };
  if (passedOn) event.by = 'stand-in';
  if (caller !== undefined) event.caller = caller;
  history.stamp(event);
  return { kind: 'ended', outcome: result.outcome, message, claims, turns: 0 };
}

/** The claims an agent reported, each marked `by: 'stand-in'` where the stand-in's last answer made it. */
function claimsOf(
  reported: ParsedEnd['claims'],
  standIn: Extract<ModelAction, { kind: 'final' }> | undefined,
): readonly Claim[] {
  if (reported === undefined) return [];
  const said = (c: { subject: string; status: Claim['status'] }): boolean =>
    standIn?.claims.some((s) => s.subject === c.subject && s.status === c.status) === true;
  return reported.map((c) => ({
    subject: c.subject,
    status: c.status,
    ...(c.note !== undefined && { note: c.note }),
    ...(said(c) && { by: 'stand-in' as const }),
  }));
}
