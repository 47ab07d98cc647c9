import { z } from 'zod';
import { FaultPlanSchema, HealSchema } from '../faults/plan.js';
import { NetworkSchema } from '../faults/network.js';
import { FaultlineError, FaultlineErrorCode } from '../core/index.js';
import { WorldConfigSchema } from '../world/WorldConfig.js';
import { BUILTIN_SERVICES, NAMED_SERVICES, isBuiltinService, type BuiltinServiceName } from '../world/createWorld.js';
import { isServiceDefinition, type ServiceDefinition } from '../world/define/defineService.js';
import { ScriptPlanSchema } from '../model/script.js';
import { BehaviourSpecSchema } from '../model/behaviours.js';
import type { ToolResultReader } from '../model/api/readToolResult.js';
import { BUILTIN_CHECKERS } from '../checks/index.js';
import type { AgentFn } from '../agent/agentFunction.js';
import type { HttpAgentFn } from '../agent/httpAgent.js';
import { formatIssues } from '../core/zodIssues.js';
import { ArrivalSchema } from './arrival.js';
import { BudgetSchema, GoalSchema, RecoverySchema } from './goalSchemas.js';
import { worldProblems } from './worldProblems.js';
import { ScenarioCrashSchema } from './agentCrash.js';

/** The most agents one trial runs at once. */
export const MAX_AGENTS = 100_000;

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
    /** Whose process dies mid-task, and when: `agent` is your own agent, killed and started again (R22, R25). */
    crash: ScenarioCrashSchema.optional(),
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
