import type { ClockRun, History, Rng, VirtualClock } from '../core/index.js';
import { runHttpAgent, type HttpAgentFn, type ModelEndpoint, type ServiceEndpoint } from '../agent/httpAgent.js';
import type { LoopEnd } from '../agent/loop.js';
import { ScriptedModel } from '../agent/ScriptedModel.js';
import { HttpFaults, type HttpService } from '../faults/http/HttpFaults.js';
import { anthropicService, openaiService } from '../faults/http/model/modelServices.js';
import { runIntercepted } from '../faults/http/runIntercepted.js';
import { serviceHttp } from '../faults/http/serviceRoutes.js';
import { BUILTIN_SERVICES, resolveServices } from '../world/createWorld.js';
import type { World } from '../world/World.js';
import type { Scenario } from './scenario.js';

/** The official addresses the SDKs use by default: intercepted, so no request leaves the machine. */
const MODEL_BASE_URLS = { openai: 'https://api.openai.com', anthropic: 'https://api.anthropic.com' } as const;

export interface HttpAgentRunOptions {
  readonly scenario: Scenario;
  readonly run: HttpAgentFn;
  readonly world: World;
  readonly clock: VirtualClock;
  readonly history: History;
  readonly rng: Rng;
  readonly startMs: number;
}

/**
 * One trial of an agent that makes its own HTTP calls: the scenario's services (and its scripted
 * model, if it names one) are served over HTTP under the fault plan through msw or nock, with
 * global timers and `Math.random` on the trial's clock and rng for the agent's duration.
 */
export async function runHttpAgentTrial({ scenario, run, world, clock, history, rng, startMs }: HttpAgentRunOptions): Promise<ClockRun<LoopEnd>> {
  const definitions = resolveServices(scenario.services ?? BUILTIN_SERVICES);
  const served = serviceHttp(world, definitions);
  const endpoints: Record<string, ServiceEndpoint> = Object.fromEntries(
    definitions.map((d, i) => [d.name, { baseUrl: served[i]!.baseUrl, tools: d.tools.map((t) => t.name) }]),
  );
  const model = modelOf(scenario);
  const services: HttpService[] = [...served, ...(model ? [model.service] : [])];
  const faults = new HttpFaults({ services, plan: scenario.faults, clock, rng: rng.fork('faults'), history, world, startMs });
  const adapter = { onUnhandledRequest: scenario.http?.onUnhandledRequest ?? 'error' } as const;
  // Loaded here, not at the top: msw and nock are optional peers, needed only by scenarios that use them.
  const start =
    scenario.http?.adapter === 'nock'
      ? (await import('../faults/http/nock.js')).startNock.bind(undefined, faults, adapter)
      : (await import('../faults/http/msw.js')).startMsw.bind(undefined, faults, adapter);
  const body = (): Promise<LoopEnd> => runHttpAgent(run, { task: scenario.agent.task, history, clock, services: endpoints, model: model?.endpoint });
  return runIntercepted(clock, start, body, { maxVirtualMs: scenario.budget.deadlineMs, timers: { random: rng.fork('client') } });
}

function modelOf(scenario: Scenario): { readonly service: HttpService; readonly endpoint: ModelEndpoint } | undefined {
  const spec = scenario.model;
  if (!spec) return undefined;
  const baseUrl = spec.baseUrl ?? MODEL_BASE_URLS[spec.api];
  const model = new ScriptedModel(spec.plan, { behaviour: spec.behaviour });
  const service = spec.api === 'openai' ? openaiService(model, baseUrl) : anthropicService(model, baseUrl);
  return { service, endpoint: { api: spec.api, baseUrl, apiKey: 'faultline-test-key' } };
}
