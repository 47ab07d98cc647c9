import { History, RealClock, Rng } from '../core/index.js';
import type { TrialEnd, TrialRecord } from '../checks/record.js';
import { BUILTIN_SERVICES } from '../world/createWorld.js';
import type { TrialBackend } from './backend.js';
import { runCommandAgentTrial } from './commandAgentRun.js';
import type { CommandAgentSpec, Scenario } from './scenario.js';

export interface ServedTrialOptions {
  readonly scenario: Scenario;
  readonly agent: CommandAgentSpec;
  readonly config: string;
  readonly seed: number;
  readonly trialIndex: number;
  readonly backend: TrialBackend;
  /** The trial's worker died or stalled: judged with this end, from its fresh world. */
  readonly lost?: Extract<TrialEnd, { kind: 'crashed' | 'hung' }>;
}

/**
 * A trial on the wall clock: the one place faultline lets real time in, since a program in
 * another process cannot be held to a virtual one. The history's times are real milliseconds
 * (since the epoch; `trial_start` says `clock: 'real'`), fault windows count from the trial's
 * start, and the same seed replays the same plan and draws, while what depends on timing may differ.
 */
export async function runServedTrial({ scenario, agent, config, seed, trialIndex, backend, lost }: ServedTrialOptions): Promise<TrialRecord> {
  const clock = new RealClock();
  const rng = new Rng(seed);
  const startMs = clock.now();
  const history = new History(clock);
  history.record({ type: 'trial_start', scenario: scenario.name, config, trialIndex, seed, startMs, clock: 'real' });
  const trial = `${scenario.name}/${config}/${trialIndex}/${seed}`;
  const world = await backend.createWorld(clock, scenario.world, scenario.services ?? BUILTIN_SERVICES, trial);
  world.processes.attach(history);
  const end = lost ?? (await runCommandAgentTrial({ scenario, agent, world, clock, history, rng, startMs, seed, trialIndex }));
  // R19: the agent's own process group, and anything it left behind, must not outlive the trial.
  await world.processes.sweep();
  const message = end.kind === 'crashed' || end.kind === 'hung' ? end.message : undefined;
  history.record({ type: 'trial_end', status: end.kind, ...(message !== undefined && { message }) });
  return { scenario: scenario.name, config, trialIndex, seed, history: history.events, snapshot: await world.snapshotAsync(), end };
}
