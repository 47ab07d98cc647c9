import type { ClockRun, History, Rng, VirtualClock } from '../core/index.js';
import { runHttpAgent, type HttpAgentFn, type ModelEndpoint, type ServiceEndpoint } from '../agent/httpAgent.js';
import type { LoopEnd } from '../agent/loop.js';
import { ScriptedModel } from '../agent/ScriptedModel.js';
import { HttpFaults, type HttpService } from '../faults/http/HttpFaults.js';
import { anthropicService, openaiService } from '../faults/http/model/modelServices.js';
import { escapeError, installEscapeGuard } from '../faults/http/escapeGuard.js';
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
  const policy = scenario.http?.onUnhandledRequest ?? 'error';
  // Loaded here, not at the top: msw and nock are optional peers, needed only by scenarios that use them.
  const startAdapter =
    scenario.http?.adapter === 'nock'
      ? (await import('../faults/http/nock.js')).startNock.bind(undefined, faults, { onUnhandledRequest: policy })
      : (await import('../faults/http/msw.js')).startMsw.bind(undefined, faults, { onUnhandledRequest: policy });
  const escapes: { method: string; url: string }[] = [];
  const start = (): { close(): void } => {
    const session = startAdapter();
    // Where unhandled requests are refused, one that slipped past the interceptor is refused too, and named.
    const unguard =
      policy === 'error'
        ? installEscapeGuard((method, url) => {
            escapes.push({ method, url });
            history.record({ type: 'escape', method, url });
          })
        : () => undefined;
    return {
      close: () => {
        unguard();
        session.close();
      },
    };
  };
  const body = (): Promise<LoopEnd> => runHttpAgent(run, { task: scenario.agent.task, history, clock, services: endpoints, model: model?.endpoint });
  const result = await runIntercepted(clock, start, body, { maxVirtualMs: scenario.budget.deadlineMs, timers: { random: rng.fork('client') } });
  const first = escapes[0];
  // The agent may have caught the connection error and carried on: the trial still did not test what it meant to.
  return first ? { kind: 'threw', error: escapeError(first.method, first.url), at: result.at } : result;
}

function modelOf(scenario: Scenario): { readonly service: HttpService; readonly endpoint: ModelEndpoint } | undefined {
  const spec = scenario.model;
  if (!spec) return undefined;
  const baseUrl = spec.baseUrl ?? MODEL_BASE_URLS[spec.api];
  const model = new ScriptedModel(spec.plan, { behaviour: spec.behaviour });
  const service = spec.api === 'openai' ? openaiService(model, baseUrl) : anthropicService(model, baseUrl);
  return { service, endpoint: { api: spec.api, baseUrl, apiKey: 'faultline-test-key' } };
}
