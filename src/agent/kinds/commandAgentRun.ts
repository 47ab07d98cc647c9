import { mkdtemp, rm } from 'node:fs/promises';
import { healOption } from '../../scenario/heal.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock, History, Rng } from '../../core/index.js';
import { HttpFaults, type HttpService } from '../../faults/http/HttpFaults.js';
import { serveFaults, type ServedWorld } from '../../serve/serveFaults.js';
import { serviceHttp } from '../../faults/http/serviceRoutes.js';
import { McpHttpEndpoint } from '../../serve/McpHttpEndpoint.js';
import type { McpWorld } from '../../serve/mcpWorldServer.js';
import { MCP_ORIGIN, mcpWorldTools } from '../../serve/mcpWorldTools.js';
import { NetworkLatency } from '../../faults/network.js';
import { runCommand, type CommandResult } from '../../world/command/runCommand.js';
import { BUILTIN_SERVICES, resolveServices } from '../../world/createWorld.js';
import type { World } from '../../world/World.js';
import type { TrialEnd } from '../../checks/record.js';
import type { Cassette, CassetteTrial } from '../../model/api/Cassette.js';
import { readCommandReport } from './commandResult.js';
import { modelOf } from './httpAgentRun.js';
import type { CommandAgentSpec, Scenario } from '../../scenario/scenario.js';

/** The key a command agent's SDK is given: faultline's own endpoint takes any, and an SDK refuses to start without one. */
export const TEST_API_KEY = 'sk-faultline-test';

/** The scenario's world on real sockets, and what a program needs to find it. */
export interface ServedScenario {
  readonly served: ServedWorld;
  readonly faults: HttpFaults;
  /**
   * `FAULTLINE_<SERVICE>_URL`, `FAULTLINE_SERVICES`, `FAULTLINE_MCP_URL`, `OPENAI_BASE_URL` / `ANTHROPIC_BASE_URL`
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
export async function serveScenario({
  scenario,
  world,
  clock,
  history,
  rng,
  startMs,
  ports,
  mcpEndpoint,
  trial,
  onInfraError,
}: ServeScenarioOptions): Promise<ServedScenario> {
  const problems: string[] = [];
  const infraErrors: string[] = [];
  const definitions = resolveServices(scenario.services ?? BUILTIN_SERVICES);
  const services: HttpService[] = serviceHttp(world, definitions);
  const model = await modelOf(scenario, rng.fork('behaviour'), {
    onMiss: (message) => problems.push(message),
    onInfraError: (message) => {
      infraErrors.push(message);
      if (infraErrors.length === 1) onInfraError?.(message);
    },
    ...(trial && { trial }),
  });
  if (model) services.push(model.service);
  // The same tools for MCP clients, on the same engine: one plan, one call count, one history.
  const mcpTools = mcpWorldTools(world, definitions);
  services.push(...mcpTools.services);
  const endpoint = mcpEndpoint ?? new McpHttpEndpoint();
  const network = scenario.network && new NetworkLatency(scenario.network, rng.fork('network'));
  const faults = new HttpFaults({
    services,
    plan: scenario.faults,
    clock,
    rng: rng.fork('faults'),
    history,
    world,
    startMs,
    ...(network && { network }),
    ...healOption(scenario),
  });
  const refuse = (scenario.http?.onUnhandledRequest ?? 'error') === 'error';
  const opened = await serveFaults(faults, {
    ...(ports && { ports }),
    exclude: [MCP_ORIGIN],
    onUnrouted: (method, url) => {
      history.record({ type: 'escape', method, url });
      if (refuse)
        problems.push(
          `the agent sent ${method} ${url}, which no route of this scenario takes (answered 404; set ` +
            `http.onUnhandledRequest to warn or bypass to allow it)`,
        );
    },
  });
  // Never the harness's own keys or endpoints: a program with no model declared must not reach a real one.
  const env: Record<string, string> = { OPENAI_API_KEY: TEST_API_KEY, ANTHROPIC_API_KEY: TEST_API_KEY };
  const catalogue: Record<string, { baseUrl: string; tools: readonly string[] }> = {};
  definitions.forEach((d, i) => {
    const baseUrl = opened.urlOf(services[i]!.baseUrl);
    env[serviceUrlVar(d.name)] = baseUrl;
    catalogue[d.name] = { baseUrl, tools: d.tools.map((t) => t.name) };
  });
  env['FAULTLINE_SERVICES'] = JSON.stringify(catalogue);
  env['FAULTLINE_MCP_URL'] = await endpoint.listen();
  const ended = new AbortController();
  const mcp: McpWorld = { faults, tools: mcpTools.tools, ended: ended.signal };
  endpoint.world = mcp;
  const served: ServedWorld = {
    ...opened,
    async close() {
      // The engine records what is still open as lost at the trial's end; then the calls waiting on it return.
      await opened.close();
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

export interface CommandAgentRunOptions extends Omit<ServeScenarioOptions, 'trial' | 'onInfraError'> {
  readonly agent: CommandAgentSpec;
  readonly config: string;
  readonly seed: number;
  readonly trialIndex: number;
  /** Hears a live trial's recording of its model exchanges. */
  readonly onRecording?: (recording: Cassette) => void;
}

/** Bytes of the agent's stdout and stderr kept in the history. */
const KEPT_OUTPUT = 16_384;

/**
 * One trial of an agent that is a program of its own: the world is served over real HTTP, the
 * program started in its own process group with the addresses in its environment, and ended
 * (the group, on timeout) by `runCommand`. The trial's end is what the program reported in
 * `FAULTLINE_RESULT`, or its exit status; a program that cannot start, never exits or reports
 * garbage ends its trial, never the run. The caller sweeps the process table (R19) afterwards.
 */
export async function runCommandAgentTrial(options: CommandAgentRunOptions): Promise<TrialEnd> {
  const { agent, clock, history, startMs } = options;
  // The provider failed for good: the agent waits on an answer that will not come, so it is stopped now, not at its timeout.
  const providerLost = new AbortController();
  const { served, env, problems, infraErrors, recording } = await serveScenario({
    ...options,
    trial: {
      scenario: options.scenario.name,
      config: options.config,
      trialIndex: options.trialIndex,
      seed: options.seed,
    },
    onInfraError: () => providerLost.abort(),
  });
  if (recording) options.onRecording?.(recording);
  const dir = await mkdtemp(join(tmpdir(), 'faultline-agent-'));
  const resultFile = join(dir, 'result.json');
  let result: CommandResult;
  try {
    result = await runCommand(
      {
        argv: agent.argv as [string, ...string[]],
        ...(agent.cwd !== undefined && { cwd: agent.cwd }),
        env: {
          ...harnessEnv(),
          ...noProxy(),
          ...env,
          FAULTLINE_TASK: agent.task,
          FAULTLINE_SEED: String(options.seed),
          FAULTLINE_TRIAL: String(options.trialIndex),
          ...agent.env,
          FAULTLINE_RESULT: resultFile,
        } as Record<string, string>,
        timeoutMs: agent.timeoutMs,
        maxOutputBytes: KEPT_OUTPUT,
      },
      { clock, processes: options.world.processes, service: 'agent', signal: providerLost.signal },
    );
  } finally {
    await served.close();
  }
  try {
    // Not the agent's doing: whatever it did or reported after the provider failed, the trial is not judged.
    const lost = infraErrors[0];
    if (lost !== undefined) return { kind: 'infra_error', message: lost };
    return await endOf(result, resultFile, history, clock.now() - startMs, agent, problems);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The harness's environment less the model endpoints it may name: a program must reach only the served one. */
function harnessEnv(): Record<string, string | undefined> {
  const { OPENAI_BASE_URL: _openai, ANTHROPIC_BASE_URL: _anthropic, ...rest } = process.env;
  return rest;
}

/** Loopback never goes through a proxy the environment names for the outside world. */
function noProxy(): Record<string, string> {
  const own = ['127.0.0.1', 'localhost'];
  const given = (process.env['NO_PROXY'] ?? process.env['no_proxy'] ?? '').split(',').filter((h) => h.trim() !== '');
  const value = [...new Set([...given, ...own])].join(',');
  return { NO_PROXY: value, no_proxy: value };
}

const tail = (text: string): string => {
  const t = text.trim();
  return t.length > 400 ? `…${t.slice(-400)}` : t;
};

async function endOf(
  result: CommandResult,
  resultFile: string,
  history: History,
  at: number,
  agent: CommandAgentSpec,
  problems: readonly string[],
): Promise<TrialEnd> {
  const program = agent.argv.join(' ');
  if (result.kind === 'spawn_failed')
    return { kind: 'crashed', message: `the agent command (${program}) could not start: ${result.message}` };
  if (result.kind === 'timed_out') {
    return {
      kind: 'hung',
      at,
      message:
        `the agent command (${program}) did not exit within timeoutMs ${result.timeoutMs} ms ` +
        `(real time); its process group was sent ${result.killedWith}`,
    };
  }
  const first = problems[0];
  if (first !== undefined) return { kind: 'crashed', message: first };
  const report = await readCommandReport(resultFile);
  if (report.kind === 'garbage')
    return {
      kind: 'crashed',
      message: `the agent command (${program}) exited with ${exitOf(result)}, and ${report.message}`,
    };
  if (report.kind === 'reported') {
    history.record({ type: 'agent_end', outcome: report.outcome, claims: report.claims, message: report.message });
    return { kind: 'agent_ended', outcome: report.outcome };
  }
  if (result.signal !== null)
    return {
      kind: 'crashed',
      message: `the agent command (${program}) was killed by ${result.signal}${stderrOf(result)}`,
    };
  const outcome = result.exitCode === 0 ? 'completed' : 'failed';
  history.record({
    type: 'agent_end',
    outcome,
    claims: [],
    message: `exited with code ${String(result.exitCode)} and wrote no FAULTLINE_RESULT${stderrOf(result)}`,
  });
  return { kind: 'agent_ended', outcome };
}

const exitOf = (result: CommandResult): string =>
  result.signal === null ? `code ${String(result.exitCode)}` : result.signal;
const stderrOf = (result: CommandResult): string =>
  result.stderr.trim() === '' ? '' : `; stderr: ${tail(result.stderr)}`;
