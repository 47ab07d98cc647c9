import type { Clock, History } from '../core/index.js';
import type { AgentFnResult } from './agentFunction.js';
import { endOf } from './agentFunction.js';
import type { LoopEnd } from './loop.js';
import type { ModelAction } from '../model/model.js';
import type { CheckpointStore } from '../core/kv.js';
import { agentKv, FIRST_START, never, type AgentKv, type AgentStart } from './agentKv.js';

/** Where one of the scenario's services answers over HTTP. */
export interface ServiceEndpoint {
  /** `https://helpdesk.test`, or `https://{name}.faultline.test` for a service with no routes of its own. */
  readonly baseUrl: string;
  /** The service's tools, and for a service served as RPC, the path each answers at (`POST /tools/{name}`). */
  readonly tools: readonly string[];
}

/** Where the scenario's scripted model answers, for an SDK client built inside the agent. */
export interface ModelEndpoint {
  readonly api: 'openai' | 'anthropic';
  /**
   * What the SDK takes as its base URL: `https://api.openai.com/v1` for the openai SDK (and the
   * AI SDK's `createOpenAI({ baseURL })`, LangChain's `new ChatOpenAI({ configuration: { baseURL } })`),
   * `https://api.anthropic.com` for Anthropic's SDK, which adds `/v1` itself. Pass it as is.
   */
  readonly baseUrl: string;
  /** Any non-empty key: the endpoint is faultline's, and an SDK refuses to start without one. */
  readonly apiKey: string;
}

/**
 * What your agent's own code is given. It makes its own HTTP calls (fetch, node:http clients,
 * SDKs) to the services' URLs; faultline intercepts them, applies the fault plan and records
 * every request. Timers (`setTimeout`, `AbortSignal.timeout`, `Date`) run on the trial's
 * virtual clock, and `Math.random` on its seeded rng, so a 30 s client timeout costs nothing.
 */
export interface HttpAgentContext {
  readonly task: string;
  /** The scenario's services by name. */
  readonly services: Readonly<Record<string, ServiceEndpoint>>;
  /** Set when the scenario names a model. Build SDK clients inside the agent, not at module load (see docs/real-models.md). */
  readonly model: ModelEndpoint | undefined;
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

/** Your own agent, making its own HTTP calls; what it returns is judged against the world (R29). */
export type HttpAgentFn = (ctx: HttpAgentContext) => Promise<AgentFnResult>;

/**
 * Types an HTTP agent; nothing more.
 *
 * @example
 * export default defineHttpAgent(async ({ services }) => {
 * const res = await fetch(`${services.helpdesk.baseUrl}/tickets`, { method: 'POST', body: JSON.stringify({ requestId:
 * 'r1', subject: 'x' }) });
 *   return { outcome: res.ok ? 'completed' : 'failed' };
 * });
 */
export const defineHttpAgent = (fn: HttpAgentFn): HttpAgentFn => fn;

export interface HttpAgentOptions {
  readonly task: string;
  readonly history: History;
  readonly clock: Clock;
  readonly services: Readonly<Record<string, ServiceEndpoint>>;
  readonly model?: ModelEndpoint | undefined;
  /** The stand-in model's last final answer, once the agent has ended (see `endOf`). */
  readonly standIn?: () => Extract<ModelAction, { kind: 'final' }> | undefined;
  /** The trial's checkpoint store (`ctx.kv`); without one, a store of this run's own. */
  readonly kv?: CheckpointStore;
  /** Which start this is, and whether it was abandoned (default: the first, alive). */
  readonly start?: AgentStart;
}

/** Runs the agent's code and records its end; exceptions propagate, and the runner records a crashed trial. */
export async function runHttpAgent(fn: HttpAgentFn, options: HttpAgentOptions): Promise<LoopEnd> {
  const { task, history, clock, services, model } = options;
  const start = clock.now();
  const life = options.start ?? FIRST_START;
  const ctx: HttpAgentContext = {
    task,
    services,
    model,
    wait: async (ms) => {
      if (!life.alive()) return never();
      history.record({ type: 'agent_wait', ms });
      await clock.sleep(ms);
    },
    now: () => clock.now() - start,
    restart: life.restart > 0,
    restartCount: life.restart,
    kv: agentKv(options.kv ?? new Map<string, string>(), life),
  };
  const returned = await fn(ctx);
  // An abandoned start that still returns ends nothing: the start after it is the agent's.
  if (!life.alive()) return never();
  return endOf(returned, history, undefined, options.standIn?.());
}
