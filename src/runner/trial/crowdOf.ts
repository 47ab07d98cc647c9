import type { Clock, History, IdSource, Rng, Transport } from '../../core/index.js';
import type { ToolExecutor } from '../../runtime/ToolExecutor.js';
import { arrivalOffsets } from '../../scenario/arrival.js';
import type { Scenario } from '../../scenario/scenario.js';
import type { ExecutorContext } from '../executorFor.js';
import { scenarioClient } from './scenarioClient.js';

/** A crowd's agents: when each starts and its own execution layer; and when the last one starts. */
export interface Crowd {
  readonly agents: readonly { readonly offset: number; readonly executor: ToolExecutor }[];
  readonly lastStart: number;
}

/** Each agent of a crowd: when it starts (from the trial's own arrivals stream) and its own execution layer. */
export async function crowdOf(
  scenario: Scenario,
  rng: Rng,
  create: (ctx: ExecutorContext) => Promise<ToolExecutor>,
  shared: {
    readonly wire: Transport;
    readonly clock: Clock;
    readonly history: History;
    readonly ids: IdSource;
    readonly startMs: number;
  },
): Promise<Crowd> {
  const offsets = arrivalOffsets(scenario.arrival, scenario.agents, rng.fork('arrivals'));
  const agents = await Promise.all(
    offsets.map(async (offset, i) => {
      const agentRng = rng.fork(`agent-${i}`);
      const transport = scenarioClient(scenario, shared.wire, shared.clock, agentRng.fork('client'));
      const runtimeRng = agentRng.fork('runtime');
      const executor = await create({
        transport,
        clock: shared.clock,
        rng: runtimeRng,
        sdkRng: runtimeRng.fork('sdk-layer'),
        history: shared.history,
        ids: shared.ids,
        startMs: shared.startMs + offset,
      });
      return { offset, executor };
    }),
  );
  return { agents, lastStart: offsets.reduce((a, b) => Math.max(a, b), 0) };
}
