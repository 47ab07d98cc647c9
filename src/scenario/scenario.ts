import { statSync } from 'node:fs';
import { z } from 'zod';
import { AGENT_OUTCOMES, FaultlineError, FaultlineErrorCode, isFaultlineError, VirtualClock } from '../core/index.js';
import { FaultPlanSchema, HealSchema } from '../faults/plan.js';
import { NetworkSchema } from '../faults/network.js';
import { WorldConfigSchema } from '../world/WorldConfig.js';
import {
  BUILTIN_SERVICES,
  NAMED_SERVICES,
  createWorld,
  resolveServices,
  isBuiltinService,
  type BuiltinServiceName,
} from '../world/createWorld.js';
import { isServiceDefinition, type ServiceDefinition } from '../world/define/defineService.js';
import { ScriptPlanSchema } from '../model/script.js';
import { BehaviourSpecSchema } from '../model/behaviours.js';
import type { ToolResultReader } from '../model/api/readToolResult.js';
import { BUILTIN_CHECKERS } from '../checks/index.js';
import type { AgentFn } from '../agent/agentFunction.js';
import type { HttpAgentFn } from '../agent/httpAgent.js';
import { formatIssues, formatPath } from '../core/zodIssues.js';
import { QUERY_OPERATION_STATUS } from '../runtime/queryOperationStatusTool.js';
import { networkProblems } from './networkProblems.js';
import { lieProblems } from './lieProblems.js';
import { MODEL_OPERATIONS } from '../model/api/modelOperations.js';
import { ArrivalSchema } from './arrival.js';

/** The most agents one trial runs at once. */
export const MAX_AGENTS = 100_000;

export const BudgetSchema = z
  .object({
    maxTurns: z.number().int().positive().default(20),
    maxToolCalls: z.number().int().positive().default(20),
    maxAttemptsPerCall: z.number().int().positive().default(3),
    /** Virtual milliseconds from the trial start. */
    deadlineMs: z.number().positive().default(300_000),
    /** Deliveries to services per logical operation, all retry layers together (R10); unlimited when absent. */
    maxDeliveriesPerOperation: z.number().int().positive().optional(),
  })
  .strict();

export const GoalSchema = z
  .object({
    state: z.record(z.string(), z.unknown()).optional(),
    effects: z.record(z.string(), z.number().int().nonnegative()).optional(),
    outcome: z.array(z.enum(AGENT_OUTCOMES)).min(1).optional(),
  })
  .strict();

/** What the `recovery` checker judges once the faults heal (see `RecoveryExpectation` in checks/record.ts). */
export const RecoverySchema = z
  .object({
    /** Virtual ms from the heal by which the goal must be reached. */
    withinMs: z.number().nonnegative().finite(),
    /** The most logical tool calls the agents may start at or after the heal (status queries excluded). */
    maxCallsAfter: z.number().int().nonnegative().optional(),
    /** The longest an agent running at the heal may wait, after it, before its next request or its end (default: `withinMs`). */
    maxStaleWaitMs: z.number().nonnegative().finite().optional(),
  })
  .strict();

export const ScriptedAgentSchema = z
  .object({
    kind: z.literal('scripted'),
    task: z.string().min(1),
    /** One behaviour, or a mixture drawn per decision from the trial's rng (`{ careful: 0.9, ignores-retry-after: 0.1 }`). */
    behaviour: BehaviourSpecSchema.default('careful'),
    plan: ScriptPlanSchema,
  })
  .strict();

/** Your own code, making its own HTTP calls: in YAML and JSON a module path (`module`), in TypeScript the function (`run`). */
export const HttpAgentDataSchema = z
  .object({
    kind: z.literal('http'),
    task: z.string().min(1),
    /** A module whose default export is the agent (`defineHttpAgent`), resolved from the scenario file. */
    module: z.string().min(1),
  })
  .strict();

export const HttpAgentSchema = z
  .object({
    kind: z.literal('http'),
    task: z.string().min(1),
    run: z.custom<HttpAgentFn>((v) => typeof v === 'function', {
      message: 'expected a function (ctx) => Promise<{ outcome }> (defineHttpAgent)',
    }),
  })
  .strict();

/** How the scenario's services are served over HTTP to an `http` agent. */
export const HttpTransportSchema = z
  .object({
    /** The interceptor: msw (fetch and node:http) or nock (node:http, and fetch on Node 18+). */
    adapter: z.enum(['msw', 'nock']).default('msw'),
    /** Requests to no service of the scenario: refused with a message naming them (default), warned about, or let through. */
    onUnhandledRequest: z.enum(['error', 'warn', 'bypass']).default('error'),
  })
  .strict();

/**
 * The model API an `http` agent's SDK calls, answered by a scripted model (`plan`), by recorded
 * answers (a cassette: `cassette`, or `<scenario>.cassette.json` beside the scenario file when
 * it exists), or, under `faultline run --record` or `--live`, by the real endpoint at `baseUrl`.
 */
export const ModelEndpointSchema = z
  .object({
    api: z.enum(['openai', 'anthropic']),
    /**
     * The API's root, where its routes are served (`<root>/v1/chat/completions`; default: the
     * official address, which is intercepted), or that root with `/v1`, as compatible servers
     * document theirs (`http://127.0.0.1:11434/v1`): the same thing. The agent's SDK gets its own
     * form as `ctx.model.baseUrl`.
     */
    baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    /**
     * The model's name in the price table (`gpt-4o-mini`, `claude-sonnet-4-5`, or one of your own in
     * `faultline.config.ts` `prices`): what each trial's tokens cost. Without it, a live trial is
     * priced by the model its requests name.
     */
    name: z.string().min(1).optional(),
    /** One behaviour, or a mixture drawn per decision from the trial's rng. */
    behaviour: BehaviourSpecSchema.default('careful'),
    /**
     * A module whose default export reads the app's own tool-result format (`ToolResultReader`),
     * resolved from the scenario file; tried before the built-in reader. In TypeScript, the function.
     */
    readToolResult: z.string().min(1).optional(),
    /** The scripted model's plan; may be left out when the scenario has a cassette. */
    plan: ScriptPlanSchema.optional(),
    /** A cassette file of recorded model answers, resolved from the scenario file (default: `<scenario>.cassette.json`, if it exists). */
    cassette: z.string().min(1).optional(),
  })
  .strict();

/**
 * Any program, in any language (`[python3, agent.py]`), started once per trial in its own process
 * group against the scenario's world served over real HTTP on 127.0.0.1 (see `runCommandAgentTrial`).
 * It runs on the wall clock: the one agent kind that does.
 */
export const CommandAgentSchema = z
  .object({
    kind: z.literal('command'),
    /** Given to the program as `FAULTLINE_TASK`. */
    task: z.string().default(''),
    /** The program and its arguments; no shell unless you name one (`[sh, -c, '…']`). */
    argv: z.array(z.string().min(1)).min(1),
    /**
     * Where it runs: in a scenario file, resolved from the file's folder (default: that folder); in TypeScript, from
     * the working directory.
     */
    cwd: z.string().min(1).optional(),
    /** Added to the harness's environment (after faultline's own variables, so yours win, except `FAULTLINE_RESULT`). */
    env: z.record(z.string(), z.string()).optional(),
    /** Real milliseconds the program may run before its process group is sent SIGTERM, then SIGKILL. */
    timeoutMs: z.number().int().positive().default(60_000),
  })
  .strict();
export type CommandAgentSpec = z.infer<typeof CommandAgentSchema>;

export const FunctionAgentSchema = z
  .object({
    kind: z.literal('function'),
    task: z.string().min(1),
    fn: z.custom<AgentFn>((v) => typeof v === 'function', {
      message: 'expected a function (ctx) => Promise<{ outcome }>',
    }),
  })
  .strict();

/** The declarative part: everything a YAML/JSON scenario file can say. */
export const ScenarioDataSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'expected a lowercase slug such as "order-partial-write"'),
    title: z.string().min(1).optional(),
    /** The real-world failure this scenario stands for. */
    description: z.string().default(''),
    /** Rulebook rules it exercises: `R18`, `R22`… */
    rules: z.array(z.string().regex(/^R\d+$/, 'expected a rule id such as "R7"')).default([]),
    /** The virtual clock's start (ISO 8601): fixed, so HTTP-dates and "no past dates" replay exactly. */
    startTime: z.iso.datetime({ offset: true }).default('2026-01-05T09:00:00.000Z'),
    world: WorldConfigSchema.default({}),
    /** The tools' own clients: an SDK that retries below the runtime, unseen by it (R10). */
    client: z
      .object({
        sdkRetries: z.number().int().nonnegative().max(10),
        tools: z.array(z.string().min(1)).min(1).optional(),
      })
      .strict()
      .optional(),
    /**
     * The services the agent can reach (default: all built-in ones): built-in names, and paths
     * to your own service modules (`./helpdesk.service.ts`, resolved from the scenario file;
     * the default export of `defineService`).
     */
    services: z
      .array(z.string().min(1))
      .min(1)
      .describe(
        `Built-in service names (${NAMED_SERVICES.join(', ')}; the default world has ` +
          `${BUILTIN_SERVICES.join(', ')}) or paths to your own service modules, resolved from the scenario file`,
      )
      .optional(),
    faults: FaultPlanSchema.default([]),
    /** From `atMs` virtual ms after the trial's start, no fault rule matches: the faults heal. */
    heal: HealSchema.optional(),
    /** How the agent must recover after the heal (needs `heal`): judged by the `recovery` checker. */
    recovery: RecoverySchema.optional(),
    /** Network latency per leg (request, response): a default, per service, per tool, per HTTP route. Without it, instantaneous. */
    network: NetworkSchema.optional().describe(
      'Network latency per leg, drawn from the trial seed: a default (latency), per service, per tool, per HTTP route.',
    ),
    agent: z.discriminatedUnion('kind', [ScriptedAgentSchema, HttpAgentDataSchema, CommandAgentSchema]),
    /**
     * How many copies of the agent run at once in each trial, sharing its one world, wire and
     * clock, each with its own execution layer (rng `agent-<i>`, calls from `agent-<i>`).
     * `{agent}` in a scripted plan is the copy's index, so each writes its own key. Budgets
     * apply per agent; the trial passes when every checker passes.
     */
    agents: z.number().int().positive().max(MAX_AGENTS).default(1),
    /** When the agents start (default: all at once). */
    arrival: ArrivalSchema.default({ kind: 'burst' }),
    /** For an `http` agent: how its HTTP traffic is intercepted. */
    http: HttpTransportSchema.optional(),
    /** For an `http` agent on an LLM SDK: the model API, answered by a scripted model. */
    model: ModelEndpointSchema.optional(),
    budget: BudgetSchema.default({ maxTurns: 20, maxToolCalls: 20, maxAttemptsPerCall: 3, deadlineMs: 300_000 }),
    goal: GoalSchema.default({}),
    secrets: z.array(z.string().min(1)).default([]),
    /**
     * The name each trial's seed is drawn from, when it is not `name`: a regression scenario
     * `faultline explore` wrote keeps the seed of the search that found it under a name of its own.
     */
    seedName: z.string().min(1).optional(),
    /** Checker names to run (default: all built-in). */
    checks: z
      .array(z.enum(BUILTIN_CHECKERS.map((c) => c.name) as [string, ...string[]]))
      .min(1)
      .optional(),
    /** The wire format tool results are rendered in for the model. */
    format: z.enum(['openai', 'claude', 'mcp']).default('openai'),
  })
  .strict();

export const ServiceRefSchema = z.custom<BuiltinServiceName | ServiceDefinition>(
  (v) => (typeof v === 'string' && isBuiltinService(v)) || isServiceDefinition(v),
  {
    error: (issue) => {
      if (typeof issue.input !== 'string') return 'expected a built-in service name or a service from defineService';
      const services = NAMED_SERVICES.join(', ');
      const modulePath = /[./\\]/.test(issue.input)
        ? '; a module path is resolved only in scenario files: import the service and pass it'
        : '';
      return `"${issue.input}" is not a built-in service (${services})${modulePath}`;
    },
  },
);

export const ReaderSchema = z.custom<ToolResultReader>((v) => typeof v === 'function', {
  error: (issue) => {
    const modulePath =
      typeof issue.input === 'string'
        ? '; a module path is resolved only in scenario files: import the reader and pass it'
        : '';
    return `expected a function (result) => ToolReading | undefined${modulePath}`;
  },
});

/**
 * The TypeScript form also accepts your own agent as a function, services as definitions, and the model's tool-result
 * reader as a function.
 */
export const ScenarioSchema = ScenarioDataSchema.extend({
  agent: z.discriminatedUnion('kind', [ScriptedAgentSchema, FunctionAgentSchema, HttpAgentSchema, CommandAgentSchema]),
  services: z.array(ServiceRefSchema).min(1).optional(),
  model: ModelEndpointSchema.extend({ readToolResult: ReaderSchema.optional() }).strict().optional(),
});

export type Scenario = z.infer<typeof ScenarioSchema>;
export type ScenarioInput = z.input<typeof ScenarioSchema>;
export type AgentSpec = Scenario['agent'];
export type AgentSpecKind = AgentSpec['kind'];

/**
 * Validates a scenario and fills its defaults. Throws `FAULTLINE_SCENARIO_INVALID` naming
 * every bad path and what was expected; `source` (a file name) heads the message.
 */
export function defineScenario(input: ScenarioInput, source?: string): Scenario {
  const parsed = ScenarioSchema.safeParse(input);
  const lines = parsed.success ? worldProblems(parsed.data) : formatIssues(parsed.error.issues);
  if (parsed.success && lines.length === 0) return parsed.data;
  const where = source ? `${source}: ` : '';
  const named = typeof input === 'object' && input && 'name' in input ? ` "${String(input.name)}"` : '';
  const list = lines.map((l) => `  - ${l}`).join('\n');
  throw new FaultlineError(FaultlineErrorCode.ScenarioInvalid, `${where}invalid scenario${named}:\n${list}`, {
    source,
    issues: lines,
  });
}

/**
 * What the schema cannot check: options a service refuses, and tool names (a typo in a plan
 * step or a fault rule would otherwise never match and pass silently).
 */
function worldProblems(scenario: Scenario): string[] {
  let world: ReturnType<typeof createWorld>;
  try {
    world = createWorld(new VirtualClock(0), scenario.world, scenario.services ?? BUILTIN_SERVICES);
  } catch (error) {
    if (!isFaultlineError(error)) throw error;
    const issues = (error.details as { issues?: unknown } | undefined)?.issues;
    return Array.isArray(issues) && issues.every((i) => typeof i === 'string') ? (issues as string[]) : [error.message];
  }
  const out: string[] = [];
  // A tool is found by name alone (plans, fault rules, the model's calls): two services cannot share one.
  const owner = new Map<string, string>();
  for (const service of world.services) {
    for (const tool of service.tools) {
      const first = owner.get(tool.name);
      if (first !== undefined)
        out.push(
          `services: the tool "${tool.name}" is declared by both "${first}" and "${service.name}"; expected each tool name once in a world`,
        );
      else owner.set(tool.name, service.name);
    }
  }
  const serviceNames = world.services.map((x) => x.name);
  for (const name of Object.keys(scenario.goal.state ?? {})) {
    if (!serviceNames.includes(name))
      out.push(
        `${formatPath(['goal', 'state', name])}: no service "${name}" in this scenario's world (services: ${serviceNames.join(', ')})`,
      );
  }
  const known = new Set([...world.tools.map((t) => t.name), QUERY_OPERATION_STATUS]);
  const hint = `no such tool in this scenario's services (known: ${[...known].join(', ')})`;
  const check = (name: string, path: PropertyKey[]): void => {
    if (!known.has(name)) out.push(`${formatPath(path)}: "${name}": ${hint}`);
  };
  // A fault rule may also aim at the routes of the model the scenario serves.
  const models = scenario.model ? MODEL_OPERATIONS[scenario.model.api] : [];
  const checkRule = (name: string, path: PropertyKey[]): void => {
    if (models.includes(name) || known.has(name)) return;
    const api = (Object.keys(MODEL_OPERATIONS) as (keyof typeof MODEL_OPERATIONS)[]).find((a) =>
      MODEL_OPERATIONS[a].includes(name),
    );
    if (api === undefined) return check(name, path);
    const served = scenario.model
      ? `its model speaks ${scenario.model.api} (${models.join(', ')})`
      : 'it names no model (model: { api: ' + api + ', plan: … })';
    out.push(
      `${formatPath(path)}: "${name}": a route of the ${api} model API, which this scenario does not serve: ${served}`,
    );
  };
  const plans = [
    ...(scenario.agent.kind === 'scripted' ? [{ steps: scenario.agent.plan.steps, at: ['agent', 'plan'] }] : []),
    ...(scenario.model?.plan ? [{ steps: scenario.model.plan.steps, at: ['model', 'plan'] }] : []),
  ];
  for (const { steps, at } of plans) {
    steps.forEach((step, i) => {
      check(step.tool, [...at, 'steps', i, 'tool']);
      if (step.poll) check(step.poll.tool, [...at, 'steps', i, 'poll', 'tool']);
    });
  }
  if (scenario.agents > 1 && scenario.agent.kind === 'http') {
    out.push(
      `agents: an "http" agent runs alone (its code shares one set of interceptors); agents must be 1, got ${scenario.agents}`,
    );
  }
  if (scenario.agents > 1 && scenario.agent.kind === 'command') {
    out.push(
      `agents: a "command" agent runs alone (one program per trial against its served world); agents must be 1, got ${scenario.agents}`,
    );
  }
  if (scenario.agent.kind === 'command' && scenario.agent.cwd !== undefined) {
    // Checked here, not when the trial spawns: a missing folder would end every trial as `spawn … ENOENT`.
    const what = folderKind(scenario.agent.cwd);
    if (what !== 'folder')
      out.push(
        `agent.cwd: "${scenario.agent.cwd}": ${what === 'missing' ? 'no such folder' : 'not a folder'}; ` +
          `expected the folder the agent command starts in (from the scenario file's folder)`,
      );
  }
  // How an http agent's calls are intercepted (and a command agent's served world answers what it does not know): a
  // scripted or function agent makes no HTTP call.
  if (scenario.http && scenario.agent.kind !== 'http' && scenario.agent.kind !== 'command')
    out.push(
      `http: sets how an "http" or "command" agent's HTTP calls are met (adapter, unhandled requests); ` +
        `agent.kind is "${scenario.agent.kind}", which makes none: remove it, or use such an agent`,
    );
  if (scenario.model && scenario.agent.kind !== 'http' && scenario.agent.kind !== 'command')
    out.push(
      `model: a model endpoint serves an "http" or "command" agent's SDK; agent.kind is "${scenario.agent.kind}"`,
    );
  scenario.faults.forEach((rule, i) => {
    const tools = rule.match.tool;
    if (tools === undefined) return;
    if (typeof tools === 'string') checkRule(tools, ['faults', i, 'match', 'tool']);
    else tools.forEach((t, j) => checkRule(t, ['faults', i, 'match', 'tool', j]));
  });
  scenario.client?.tools?.forEach((t, i) => check(t, ['client', 'tools', i]));
  const reshaped = new Set(
    resolveServices(scenario.services ?? BUILTIN_SERVICES).flatMap(
      (d) => d.http?.routes.filter((r) => typeof r.output === 'function').map((r) => r.tool) ?? [],
    ),
  );
  out.push(...lieProblems(scenario.faults, world, reshaped));
  out.push(...healProblems(scenario));
  if (scenario.network)
    out.push(...networkProblems(scenario.network, world, scenario.services ?? BUILTIN_SERVICES, scenario.agent.kind));
  return out;
}

function folderKind(path: string): 'folder' | 'other' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'other';
  } catch {
    return 'missing';
  }
}

/** `heal` and `recovery` together: a recovery is judged from a heal, and a rule that starts after the heal can never fire. */
function healProblems(scenario: Scenario): string[] {
  const out: string[] = [];
  const heal = scenario.heal;
  if (scenario.recovery && !heal)
    out.push(
      'recovery: judged from the moment the faults heal, and this scenario has no heal; expected heal: { atMs } beside it',
    );
  if (scenario.checks?.includes('recovery') && !scenario.recovery)
    out.push(
      'checks: "recovery" judges a recovery expectation, and this scenario has none; expected recovery: { withinMs } (with heal: { atMs })',
    );
  if (heal) {
    scenario.faults.forEach((rule, i) => {
      const from = rule.match.from;
      if (from !== undefined && from >= heal.atMs)
        out.push(
          `${formatPath(['faults', i, 'match', 'from'])}: ${from} is not before heal.atMs (${heal.atMs}): ` +
            `the rule could never fire; expected a window that opens before the heal`,
        );
    });
  }
  return out;
}
