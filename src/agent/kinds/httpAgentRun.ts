import { INFRA_ERROR_CODE } from '../../core/infraError.js';
import { installVirtualTimers } from '../../core/clock/globalTimers.js';
import { FIRST_START, type AgentStart } from '../agentKv.js';
import { freshAgent } from '../../scenario/freshAgent.js';
import { AgentKill } from './AgentKill.js';
import { inProcessStarts } from './inProcessStarts.js';
import { RestartGate } from './RestartGate.js';
import type { ClockRun, History, Rng, VirtualClock } from '../../core/index.js';
import { runHttpAgent, type HttpAgentFn, type ModelEndpoint, type ServiceEndpoint } from '../httpAgent.js';
import type { LoopEnd } from '../loop.js';
import { ScriptedModel } from '../../model/ScriptedModel.js';
import { HttpFaults, type HttpService } from '../../faults/http/HttpFaults.js';
import { anthropicService, openaiService } from '../../model/api/modelServices.js';
import { modelRoot, sdkBaseUrl } from '../../model/api/modelOperations.js';
import { recordedModelService } from '../../model/api/recordedService.js';
import { escapeError, installEscapeGuard } from '../../faults/http/escapeGuard.js';
import { installOutboundGuard, interceptionUp } from '../../faults/http/outboundGuard.js';
import { runIntercepted } from '../../faults/http/runIntercepted.js';
import { unservedError } from '../../faults/http/UnhandledRequestPolicy.js';
import { serviceHttp } from '../../faults/http/serviceRoutes.js';
import { BUILTIN_SERVICES, resolveServices } from '../../world/createWorld.js';
import type { World } from '../../world/World.js';
import type { Cassette, CassetteTrial } from '../../model/api/Cassette.js';
import { modelSourceFor, type ModelSourceHooks } from '../../scenario/modelSource.js';
import type { Scenario } from '../../scenario/scenario.js';
import { scenarioFaults } from '../../scenario/scenarioFaults.js';

export interface HttpAgentRunOptions {
  readonly scenario: Scenario;
  readonly run: HttpAgentFn;
  readonly world: World;
  readonly clock: VirtualClock;
  readonly history: History;
  readonly rng: Rng;
  readonly startMs: number;
  /** Who the trial is, for a live trial's recording. */
  readonly trial?: CassetteTrial;
  /** Hears a live trial's recording once the trial has run. */
  readonly onRecording?: (recording: Cassette) => void;
}

/**
 * One trial of an agent that makes its own HTTP calls: the scenario's services (and its scripted
 * model, if it names one) are served over HTTP under the fault plan through msw or nock, with
 * global timers and `Math.random` on the trial's clock and rng for the agent's duration.
 */
export async function runHttpAgentTrial({
  scenario,
  run,
  world,
  clock,
  history,
  rng,
  startMs,
  trial,
  onRecording,
}: HttpAgentRunOptions): Promise<ClockRun<LoopEnd>> {
  const definitions = resolveServices(scenario.services ?? BUILTIN_SERVICES);
  const served = serviceHttp(world, definitions);
  const endpoints: Record<string, ServiceEndpoint> = Object.fromEntries(
    definitions.map((d, i) => [d.name, { baseUrl: served[i]!.baseUrl, tools: d.tools.map((t) => t.name) }]),
  );
  const misses: string[] = [];
  const infra: string[] = [];
  const model = await modelOf(scenario, rng.fork('behaviour'), {
    onMiss: (message) => misses.push(message),
    onInfraError: (message) => infra.push(message),
    ...(trial && { trial }),
  });
  if (model?.recording) onRecording?.(model.recording);
  const services: HttpService[] = [...served, ...(model ? [model.service] : [])];
  const trigger = scenario.crash?.agent;
  const kill = trigger && new AgentKill(trigger, world.ledger, history);
  const gate = kill && new RestartGate(kill);
  const faults = new HttpFaults({
    services,
    world,
    clock,
    history,
    startMs,
    ...scenarioFaults(scenario, rng),
    ...(gate && { gate }),
  });
  const escapes: { method: string; url: string }[] = [];
  const start = await interception(scenario, faults, (method, url) => {
    escapes.push({ method, url });
    history.record({ type: 'escape', method, url });
  });
  const standIn = model?.standIn;
  const startOf = (fn: HttpAgentFn, life: AgentStart): Promise<LoopEnd> =>
    runHttpAgent(fn, {
      task: scenario.agent.task,
      history,
      clock,
      services: endpoints,
      model: model?.endpoint,
      kv: world.kv,
      start: life,
      ...(standIn && { standIn: () => standIn.lastFinal }),
    });
  // The restart's module instance is imported now, before the clock runs: an import is real I/O.
  const again =
    kill && ((await freshAgent(run, trial ?? { scenario: scenario.name, config: '', trialIndex: 0 })) ?? run);
  const body = (): Promise<LoopEnd> =>
    kill && gate && again
      ? inProcessStarts(kill, { clock, startMs, history }, async (life) => {
          if (life.restart === 0) return gate.start(0, () => startOf(run, life));
          // Timers of their own: the abandoned start's, installed around the whole run, never fire again;
          // nor do those it sets from now on through these (a timer runs in the context that set it).
          const timers = installVirtualTimers(clock, {
            random: rng.fork('client:restart'),
            alive: () => !gate.fromAbandoned(),
          });
          try {
            return await gate.start(life.restart, () => startOf(again, life));
          } finally {
            timers.uninstall();
          }
        })
      : startOf(run, FIRST_START);
  const result = await runIntercepted(clock, start, body, {
    maxVirtualMs: scenario.budget.deadlineMs,
    timers: { random: rng.fork('client'), ...(kill && { alive: () => !kill.fired }) },
  });
  return untested(result, { infra, escapes, unserved: faults.unserved, misses }) ?? result;
}

/**
 * How the agent's HTTP is intercepted for the trial: the scenario's adapter (msw or nock) under
 * the fault plan, fetch guarded outside it, and where unhandled requests are refused, a request
 * that slipped past the interceptor refused too, and told to `onEscape`.
 */
async function interception(
  scenario: Scenario,
  faults: HttpFaults,
  onEscape: (method: string, url: string) => void,
): Promise<() => { close(): void }> {
  const policy = scenario.http?.onUnhandledRequest ?? 'error';
  // Loaded here, not at the top: msw and nock are optional peers, needed only by scenarios that use them.
  const startAdapter =
    scenario.http?.adapter === 'nock'
      ? (await import('../../faults/http/nock.js')).startNock.bind(undefined, faults, { onUnhandledRequest: policy })
      : (await import('../../faults/http/msw.js')).startMsw.bind(undefined, faults, { onUnhandledRequest: policy });
  return () => {
    // Before the adapter, which restores the guarded fetch at teardown: what the agent's code sends after that is refused.
    installOutboundGuard();
    const session = startAdapter();
    const down = interceptionUp();
    const unguard = policy === 'error' ? installEscapeGuard(onEscape) : () => undefined;
    return {
      close: () => {
        unguard();
        session.close();
        down();
      },
    };
  };
}

/** What made the trial not test what it meant to, whatever the agent did: the trial's end then, instead of the agent's. */
function untested(
  result: ClockRun<LoopEnd>,
  found: {
    readonly infra: readonly string[];
    readonly escapes: readonly { readonly method: string; readonly url: string }[];
    readonly unserved: HttpFaults['unserved'];
    readonly misses: readonly string[];
  },
): ClockRun<LoopEnd> | undefined {
  const threw = (error: Error): ClockRun<LoopEnd> => ({ kind: 'threw', error, at: result.at });
  // The provider failed for good, not the agent: whatever the agent did after, the trial is not judged.
  const lostProvider = found.infra[0];
  if (lostProvider !== undefined) return threw(Object.assign(new Error(lostProvider), { code: INFRA_ERROR_CODE }));
  const first = found.escapes[0];
  // The agent may have caught the connection error and carried on: the trial still did not test what it meant to.
  if (first) return threw(escapeError(first.method, first.url));
  // Likewise a request no route serves: the agent saw only a connection error, the verdict names the request.
  const unserved = found.unserved[0];
  if (unserved) return threw(unservedError(unserved));
  // Likewise a request the cassette does not hold: the agent saw a 400, but the recording no longer fits the scenario.
  const miss = found.misses[0];
  return miss === undefined ? undefined : threw(Object.assign(new Error(miss), { code: 'FAULTLINE_CASSETTE_MISS' }));
}

export async function modelOf(
  scenario: Scenario,
  rng: Rng,
  hooks: ModelSourceHooks | ((message: string) => void),
): Promise<
  | {
      readonly service: HttpService;
      readonly endpoint: ModelEndpoint;
      readonly standIn?: ScriptedModel;
      readonly recording?: Cassette;
    }
  | undefined
> {
  const spec = scenario.model;
  if (!spec) return undefined;
  const baseUrl = modelRoot(spec.api, spec.baseUrl);
  // The agent always gets the test key: under --record and --live the real one is set on the forwarded request only.
  const endpoint: ModelEndpoint = {
    api: spec.api,
    baseUrl: sdkBaseUrl(spec.api, baseUrl),
    apiKey: 'faultline-test-key',
  };
  const recorded = await modelSourceFor(scenario, hooks);
  if (recorded)
    return {
      service: recordedModelService(spec.api, baseUrl, recorded),
      endpoint,
      ...(recorded.kind === 'gateway' && { recording: recorded.recording }),
    };
  if (!spec.plan) throw new TypeError(`scenario "${scenario.name}": model has neither a plan nor a cassette`);
  const model = new ScriptedModel(spec.plan, { behaviour: spec.behaviour, rng });
  const options = spec.readToolResult === undefined ? {} : { readToolResult: spec.readToolResult };
  const service =
    spec.api === 'openai' ? openaiService(model, baseUrl, options) : anthropicService(model, baseUrl, options);
  return { service, endpoint, standIn: model };
}
