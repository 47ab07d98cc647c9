import { History, RealClock, Rng, type AgentOutcomeKind, type Claim } from '../core/index.js';
import { scheduleHeal } from '../scenario/heal.js';
import type { TrialEnd, TrialRecord } from '../checks/record.js';
import { BUILTIN_SERVICES } from '../world/createWorld.js';
import type { TrialBackend } from './backend.js';
import type { World } from '../world/World.js';
import type { Cassette } from '../model/api/Cassette.js';
import type { McpHttpEndpoint } from '../serve/McpHttpEndpoint.js';
import type { McpWorld } from '../serve/mcpWorldServer.js';
import { runCommandAgentTrial } from '../agent/kinds/commandAgentRun.js';
import { serveScenario } from '../agent/kinds/serveScenario.js';
import { trialRecord, worldSnapshotOf } from './trial/trialRecord.js';
import type { CommandAgentSpec, Scenario } from '../scenario/scenario.js';

export interface ServedTrialOptions {
  readonly scenario: Scenario;
  readonly agent: CommandAgentSpec;
  readonly config: string;
  readonly seed: number;
  readonly trialIndex: number;
  readonly backend: TrialBackend;
  /** The trial's worker died or stalled: judged with this end, from its fresh world. */
  readonly lost?: Extract<TrialEnd, { kind: 'crashed' | 'hung' }>;
  /** Hears a live trial's recording of its model exchanges. */
  readonly onRecording?: (recording: Cassette) => void;
}

/**
 * A trial on the wall clock: the one place faultline lets real time in, since a program in
 * another process cannot be held to a virtual one. The history's times are real milliseconds
 * (since the epoch; `trial_start` says `clock: 'real'`), fault windows count from the trial's
 * start, and the same seed replays the same plan and draws, while what depends on timing may differ.
 */
export async function runServedTrial(options: ServedTrialOptions): Promise<TrialRecord> {
  const { scenario, agent, config, seed, trialIndex, lost, onRecording } = options;
  const stage = await servedStage(options);
  const end =
    lost ??
    (await runCommandAgentTrial({
      ...stage,
      scenario,
      agent,
      config,
      seed,
      trialIndex,
      ...(onRecording && { onRecording }),
    }));
  // R19: the agent's own process group, and anything it left behind, must not outlive the trial.
  await stage.world.processes.sweep();
  return servedRecord(options, stage, end);
}

/** A served world held open for interactive work (`faultline serve`): ended by its caller. */
export interface OpenServedTrial {
  /** What a program needs to find the world: the same variables a `command` agent is given. */
  readonly env: Readonly<Record<string, string>>;
  /** The port of each declared origin, to serve the next trial at the same addresses. */
  readonly ports: Readonly<Record<string, number>>;
  /** The world's tools for an MCP server of the caller's own (`mcp-serve` on stdio). */
  readonly mcp: McpWorld;
  /** Stops serving and returns the record, ended with what the client reported (or `unknown`: no one said). */
  finish(report?: {
    readonly outcome: AgentOutcomeKind;
    readonly message: string;
    readonly claims: readonly Claim[];
  }): Promise<TrialRecord>;
}

export interface OpenServedTrialOptions {
  readonly scenario: Scenario;
  readonly config: string;
  readonly seed: number;
  readonly trialIndex: number;
  readonly backend: TrialBackend;
  readonly ports?: Readonly<Record<string, number>>;
  /** The MCP endpoint, kept from trial to trial so that a client's session survives the next trial. */
  readonly mcpEndpoint?: McpHttpEndpoint;
}

/** One trial's world served on real sockets until `finish`: the scenario's agent is whoever calls. */
export async function openServedTrial(options: OpenServedTrialOptions): Promise<OpenServedTrial> {
  const { scenario, ports, mcpEndpoint } = options;
  const stage = await servedStage(options);
  const { served, env, mcp, problems, infraErrors } = await serveScenario({
    ...stage,
    scenario,
    ...(ports && { ports }),
    ...(mcpEndpoint && { mcpEndpoint }),
  });
  const bound = Object.fromEntries(served.origins.map((o) => [o.declared, Number(new URL(o.served).port)]));
  return {
    env,
    ports: bound,
    mcp,
    async finish(report) {
      await served.close();
      await stage.world.processes.sweep();
      const providerLost = infraErrors[0];
      const first = problems[0];
      const end: TrialEnd =
        providerLost !== undefined
          ? { kind: 'infra_error', message: providerLost }
          : first !== undefined
            ? { kind: 'crashed', message: first }
            : reportedEnd(stage.history, report);
      return servedRecord(options, stage, end);
    },
  };
}

/** The end a served trial's client reported, recorded as the agent's (`unknown`: no one said). */
function reportedEnd(history: History, report: Parameters<OpenServedTrial['finish']>[0]): TrialEnd {
  const r = report ?? {
    outcome: 'unknown' as const,
    message: 'the served trial was ended without a report',
    claims: [],
  };
  history.record({ type: 'agent_end', outcome: r.outcome, claims: r.claims, message: r.message });
  return { kind: 'agent_ended', outcome: r.outcome };
}

/** What a served trial is given: who it is, and where its world lives. */
type ServedTrialName = Pick<ServedTrialOptions, 'scenario' | 'config' | 'seed' | 'trialIndex' | 'backend'>;

/**
 * A served trial's start, on the wall clock: its rng, its history opened with `trial_start` (and the heal marked),
 * and its fresh world, whose processes are recorded into that history.
 */
async function servedStage({
  scenario,
  config,
  seed,
  trialIndex,
  backend,
}: ServedTrialName): Promise<{ clock: RealClock; rng: Rng; startMs: number; history: History; world: World }> {
  const clock = new RealClock();
  const rng = new Rng(seed);
  const startMs = clock.now();
  const history = new History(clock);
  history.record({ type: 'trial_start', scenario: scenario.name, config, trialIndex, seed, startMs, clock: 'real' });
  scheduleHeal(scenario, history);
  const trial = `${scenario.name}/${config}/${trialIndex}/${seed}`;
  const world = await backend.createWorld(clock, scenario.world, scenario.services ?? BUILTIN_SERVICES, trial);
  world.processes.attach(history);
  world.kv.attach(history);
  return { clock, rng, startMs, history, world };
}

/** A served trial's record: its end, and its world's final snapshot (a snapshot that throws ends it crashed, not the run). */
async function servedRecord(
  { scenario, config, trialIndex, seed }: ServedTrialName,
  { history, world }: { readonly history: History; readonly world: World },
  end: TrialEnd,
): Promise<TrialRecord> {
  return trialRecord(
    { scenario: scenario.name, config, trialIndex, seed },
    history,
    end,
    await worldSnapshotOf(world),
    undefined,
    undefined,
  );
}
