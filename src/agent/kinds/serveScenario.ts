import type { Clock, History, Rng } from '../../core/index.js';
import { HttpFaults, type HttpService } from '../../faults/http/HttpFaults.js';
import { serviceHttp } from '../../faults/http/serviceRoutes.js';
import { serveFaults, type ServedWorld } from '../../serve/serveFaults.js';
import type { AnswerGate } from '../../faults/http/AnswerGate.js';
import { McpHttpEndpoint } from '../../serve/McpHttpEndpoint.js';
import { serveKv } from '../../serve/kvServer.js';
import type { McpWorld } from '../../serve/mcpWorldServer.js';
import { MCP_ORIGIN, mcpWorldTools } from '../../serve/mcpWorldTools.js';
import { BUILTIN_SERVICES, resolveServices } from '../../world/createWorld.js';
import type { ServiceDefinition } from '../../world/define/defineService.js';
import type { World } from '../../world/World.js';
import type { Cassette, CassetteTrial } from '../../model/api/Cassette.js';
import type { ModelSourceHooks } from '../../scenario/modelSource.js';
import { scenarioFaults } from '../../scenario/scenarioFaults.js';
import type { Scenario } from '../../scenario/scenario.js';
import { modelOf } from './httpAgentRun.js';

/** The key a command agent's SDK is given: faultline's own endpoint takes any, and an SDK refuses to start without one. */
export const TEST_API_KEY = 'sk-faultline-test';

/** The scenario's world on real sockets, and what a program needs to find it. */
export interface ServedScenario {
  readonly served: ServedWorld;
  readonly faults: HttpFaults;
  /**
   * `FAULTLINE_<SERVICE>_URL`, `FAULTLINE_SERVICES`, `FAULTLINE_MCP_URL`, `FAULTLINE_KV_URL`, `OPENAI_BASE_URL` / `ANTHROPIC_BASE_URL`
   * (only the one served) and the test keys.
   */
  readonly env: Readonly<Record<string, string>>;
  /** The world's tools as MCP tools, under the same engine: what the MCP endpoint (and `mcp-serve`'s stdio) serves. */
  readonly mcp: McpWorld;
  /** Requests no route took, and cassette misses: each makes the trial not test what it meant to. */
  readonly problems: readonly string[];
  /** Under `--live`: the model provider failed for good (after the gateway's retries); the trial ends `infra-error`, not judged. */
  readonly infraErrors: readonly string[];
  /** Under `--live`: the trial's model exchanges, as they happen. */
  readonly recording?: Cassette;
}

export interface ServeScenarioOptions {
  readonly scenario: Scenario;
  readonly world: World;
  readonly clock: Clock;
  readonly history: History;
  readonly rng: Rng;
  readonly startMs: number;
  /** Ports to reuse, by declared origin (see `ServeOptions.ports`). */
  readonly ports?: Readonly<Record<string, number>>;
  /** An MCP endpoint whose sessions outlive this trial (`faultline serve`); by default one of the trial's own. */
  readonly mcpEndpoint?: McpHttpEndpoint;
  /** Who the trial is, for a live trial's recording. */
  readonly trial?: CassetteTrial;
  /** Hears the first time the model provider fails for good under `--live`. */
  readonly onInfraError?: (message: string) => void;
  /** Asked as each tool answer is about to go back: a scenario's `crash.agent` holds the one it names. */
  readonly gate?: AnswerGate;
}

/** `FAULTLINE_ORDERS_URL` for `orders`, `FAULTLINE_MY_CRM_URL` for `my-crm`. */
export const serviceUrlVar = (service: string): string =>
  `FAULTLINE_${service.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_URL`;

/**
 * Serves a scenario's world for one trial (or one `faultline serve` session): its services in
 * their declared HTTP shapes (RPC `POST /tools/{name}` for a service without routes), and its
 * model API when it names one, each on a free port of 127.0.0.1, under the fault plan, recording
 * into `history` as the intercepted adapters do.
 */
export async function serveScenario(options: ServeScenarioOptions): Promise<ServedScenario> {
  const { scenario, world, clock, history, rng, startMs, ports, mcpEndpoint } = options;
  const problems: string[] = [];
  const infraErrors: string[] = [];
  const definitions = resolveServices(scenario.services ?? BUILTIN_SERVICES);
  const services: HttpService[] = serviceHttp(world, definitions);
  const model = await modelOf(scenario, rng.fork('behaviour'), modelHooks(options, problems, infraErrors));
  if (model) services.push(model.service);
  // The same tools for MCP clients, on the same engine: one plan, one call count, one history.
  const mcpTools = mcpWorldTools(world, definitions);
  services.push(...mcpTools.services);
  const endpoint = mcpEndpoint ?? new McpHttpEndpoint();
  const gate = options.gate;
  const faults = new HttpFaults({
    services,
    world,
    clock,
    history,
    startMs,
    ...scenarioFaults(scenario, rng),
    ...(gate && { gate }),
  });
  const opened = await serveFaults(faults, {
    ...(ports && { ports }),
    exclude: [MCP_ORIGIN],
    onUnrouted: unroutedHook(scenario, history, problems),
  });
  const env = servicesEnv(definitions, (i) => opened.urlOf(services[i]!.baseUrl));
  env['FAULTLINE_MCP_URL'] = await endpoint.listen();
  // The checkpoint store, outside the fault plan: what the agent keeps there survives its crash (crash.agent).
  const kv = await serveKv(world.kv);
  env['FAULTLINE_KV_URL'] = kv.url;
  const ended = new AbortController();
  const mcp: McpWorld = { faults, tools: mcpTools.tools, ended: ended.signal };
  endpoint.world = mcp;
  const served: ServedWorld = {
    ...opened,
    async close() {
      // The engine records what is still open as lost at the trial's end; then the calls waiting on it return.
      await opened.close();
      await kv.close();
      ended.abort();
      if (endpoint.world === mcp) endpoint.world = undefined;
      if (endpoint !== mcpEndpoint) await endpoint.close();
    },
  };
  if (model) {
    // The endpoint's base URL follows each SDK's convention already: OpenAI's ends in /v1, Anthropic's does not.
    const base = opened.urlOf(model.endpoint.baseUrl);
    env[model.endpoint.api === 'openai' ? 'OPENAI_BASE_URL' : 'ANTHROPIC_BASE_URL'] = base;
  }
  return { served, faults, env, mcp, problems, infraErrors, ...(model?.recording && { recording: model.recording }) };
}

/** The model's hooks: a cassette miss is a problem; a provider lost for good is an infra error, told the first time. */
function modelHooks(
  { trial, onInfraError }: ServeScenarioOptions,
  problems: string[],
  infraErrors: string[],
): ModelSourceHooks {
  return {
    onMiss: (message) => problems.push(message),
    onInfraError: (message) => {
      infraErrors.push(message);
      if (infraErrors.length === 1) onInfraError?.(message);
    },
    ...(trial && { trial }),
  };
}

/** A request no route takes is recorded as an escape, and is a problem where the scenario refuses unhandled requests. */
function unroutedHook(scenario: Scenario, history: History, problems: string[]): (method: string, url: string) => void {
  const refuse = (scenario.http?.onUnhandledRequest ?? 'error') === 'error';
  return (method, url) => {
    history.record({ type: 'escape', method, url });
    if (refuse)
      problems.push(
        `the agent sent ${method} ${url}, which no route of this scenario takes (answered 404; set ` +
          `http.onUnhandledRequest to warn or bypass to allow it)`,
      );
  };
}

/**
 * The test keys, each service's `FAULTLINE_<SERVICE>_URL` at its served address (`urlOf` the i-th
 * service) and the catalogue of them all in `FAULTLINE_SERVICES`.
 */
function servicesEnv(
  definitions: readonly ServiceDefinition[],
  urlOf: (index: number) => string,
): Record<string, string> {
  // Never the harness's own keys or endpoints: a program with no model declared must not reach a real one.
  const env: Record<string, string> = { OPENAI_API_KEY: TEST_API_KEY, ANTHROPIC_API_KEY: TEST_API_KEY };
  const catalogue: Record<string, { baseUrl: string; tools: readonly string[] }> = {};
  definitions.forEach((d, i) => {
    const baseUrl = urlOf(i);
    env[serviceUrlVar(d.name)] = baseUrl;
    catalogue[d.name] = { baseUrl, tools: d.tools.map((t) => t.name) };
  });
  env['FAULTLINE_SERVICES'] = JSON.stringify(catalogue);
  return env;
}
