import { createHash } from 'node:crypto';
import {
  History,
  IdSource,
  Rng,
  VirtualClock,
  type ClockRunKind,
  type HistoryEvent,
} from '../../core/index.js';
import { installVirtualTimers } from '../../core/clock/globalTimers.js';
import { Wire } from '../../faults/Wire.js';
import type { ToolResultKind } from '../../runtime/result.js';
import type { ToolExecutor } from '../../runtime/ToolExecutor.js';
import { createContentionService } from '../../world/contention/ContentionServiceConfig.js';
import { World } from '../../world/World.js';
import type { ContentionConfig } from './ContentionConfig.js';
import type { ContentionScenario } from './ContentionScenario.js';
import { createClient } from './createClient.js';
import { loadHistogram, type LoadHistogram } from './loadHistogram.js';

/** 2025-01-01T00:00:00Z: every contention trial starts here, so histories compare across runs. */
export const CONTENTION_START_MS = Date.UTC(2025, 0, 1);

/** One logical call of an agent. Times are virtual ms from the trial start. */
export interface OpRun {
  readonly op: number;
  /** How the agent's last call for it ended; absent when the trial stopped first. */
  readonly result?: ToolResultKind;
  /** Calls the agent made for it: 1 plus its own re-sends. */
  readonly calls: number;
  readonly deliveries: number;
  readonly endMs?: number;
}

export interface AgentRun {
  readonly agent: number;
  readonly startMs: number;
  /** Absent when the trial stopped before the agent finished. */
  readonly endMs?: number;
  readonly ops: readonly OpRun[];
}

/** The figures of one trial, from its history, its ledger and its agents. */
export interface ContentionTrialStats {
  readonly logicalCalls: number;
  /** Every request that reached the service, refused or not: the work it had to do. */
  readonly deliveries: number;
  /** Effects beyond the first for one business key: work done twice. */
  readonly duplicates: number;
  /** Answers of 429 or 503. */
  readonly throttledResponses: number;
  /** Virtual ms, summed over logical calls, from a 429/503 until the next delivery of the call (or its end). */
  readonly throttledMs: number;
  readonly load: LoadHistogram;
}

export interface ContentionTrial {
  readonly scenario: string;
  readonly config: string;
  readonly trialIndex: number;
  readonly seed: number;
  /** How the clock run ended: `settled` when every agent finished, `time_limit` at `maxVirtualMs`. */
  readonly end: ClockRunKind;
  readonly endMs: number;
  readonly agents: readonly AgentRun[];
  readonly stats: ContentionTrialStats;
  /** sha256 of the history, event by event as JSON: equal hashes, equal histories. */
  readonly historyHash: string;
  readonly events: number;
  /** Kept only when asked for (`keepHistory`): a thousand agents make a long history. */
  readonly history?: readonly HistoryEvent[];
}

export interface ContentionTrialOptions {
  readonly scenario: ContentionScenario;
  readonly config: ContentionConfig;
  readonly seed: number;
  readonly trialIndex?: number;
  readonly keepHistory?: boolean;
}

interface MutableOp {
  op: number;
  result?: ToolResultKind;
  calls: number;
  endMs?: number;
}
interface MutableAgent {
  agent: number;
  startMs: number;
  endMs?: number;
  ops: MutableOp[];
}

export const callerOf = (agent: number, op: number): string => `agent-${agent}/op-${op}`;

/**
 * One contention trial: a fresh service with finite capacity, one wire, and `agents` agents
 * each with its own execution layer under `config`, all running at once on one virtual
 * clock. Everything is drawn from `seed`: the same seed gives the same history. A library
 * configuration runs with the clock's timers and a seeded `Math.random` installed globally
 * for the trial's duration.
 */
export async function runContentionTrial({ scenario, config, seed, trialIndex = 0, keepHistory = false }: ContentionTrialOptions): Promise<ContentionTrial> {
  const rng = new Rng(seed);
  const clock = new VirtualClock(CONTENTION_START_MS);
  const history = new History(clock);
  history.record({ type: 'trial_start', scenario: scenario.name, config: config.name, trialIndex, seed, startMs: CONTENTION_START_MS });
  const service = createContentionService(scenario.service, clock);
  const world = new World(clock).add(service);
  const wire = new Wire({ world, plan: [], clock, rng: rng.fork('faults'), history, startMs: CONTENTION_START_MS });
  const ids = new IdSource();
  const arrivals = rng.fork('arrivals');
  const agents: MutableAgent[] = Array.from({ length: scenario.agents }, (_, agent) => ({
    agent,
    startMs: scenario.arrival.kind === 'burst' ? 0 : arrivals.int(0, Math.floor(scenario.arrival.overMs)),
    ops: [],
  }));
  const clients = await Promise.all(
    agents.map((a) => createClient(config, { wire, clock, rng: rng.fork(`agent-${a.agent}`), history, ids, startMs: CONTENTION_START_MS + a.startMs })),
  );

  const elapsed = (): number => clock.now() - CONTENTION_START_MS;
  const runAgent = async (a: MutableAgent, client: ToolExecutor): Promise<void> => {
    if (a.startMs > 0) await clock.sleep(a.startMs);
    for (let op = 0; op < scenario.callsPerAgent; op++) {
      if (op > 0 && scenario.thinkTimeMs > 0) await clock.sleep(scenario.thinkTimeMs);
      const run: MutableOp = { op, calls: 0 };
      a.ops.push(run);
      const input = service.inputFor(a.agent, op);
      const caller = callerOf(a.agent, op);
      let result: ToolResultKind;
      // The agent's own layer: it re-sends a call that came back as an error.
      do {
        run.calls++;
        result = (await client.call(service.tool, input, { caller })).kind;
      } while (result === 'error' && run.calls <= config.layers.agentRepeats);
      run.result = result;
      run.endMs = elapsed();
    }
    a.endMs = elapsed();
  };

  const library = config.kind !== 'runtime';
  // The libraries read real timers and Math.random: both answer from the trial while they run.
  const timers = library ? installVirtualTimers(clock, { mode: 'library', random: rng.fork('math-random') }) : undefined;
  let run;
  try {
    run = await clock.run(() => Promise.all(agents.map((a, i) => runAgent(a, clients[i]!))), {
      maxVirtualMs: scenario.maxVirtualMs,
      maxFiresPerInstant: Math.max(10_000, scenario.agents * 100),
    });
  } finally {
    timers?.uninstall();
  }
  if (run.kind === 'threw') throw run.error;
  history.record({ type: 'trial_end', status: run.kind });

  const { stats, perOp } = trialStats(history.events, world, agents, scenario.callsPerAgent, elapsed());
  const hash = createHash('sha256');
  // Events are built by the same code in the same order for the same seed, so plain JSON is stable (and far cheaper).
  for (const e of history.events) hash.update(`${JSON.stringify(e)}\n`);
  return {
    scenario: scenario.name,
    config: config.name,
    trialIndex,
    seed,
    end: run.kind,
    endMs: elapsed(),
    agents: agents.map((a) => ({
      agent: a.agent,
      startMs: a.startMs,
      ...(a.endMs !== undefined && { endMs: a.endMs }),
      ops: a.ops.map((o) => ({ ...o, deliveries: perOp[a.agent * scenario.callsPerAgent + o.op] ?? 0 })),
    })),
    stats,
    historyHash: hash.digest('hex'),
    events: history.length,
    ...(keepHistory && { history: history.events }),
  };
}

const THROTTLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** One pass over the history: deliveries per logical call, throttling, load; duplicates from the ledger. */
function trialStats(
  events: readonly HistoryEvent[],
  world: World,
  agents: readonly MutableAgent[],
  callsPerAgent: number,
  endMs: number,
): { stats: ContentionTrialStats; perOp: number[] } {
  const opOfCaller = new Map<string, number>();
  for (const a of agents) for (const o of a.ops) opOfCaller.set(callerOf(a.agent, o.op), a.agent * callsPerAgent + o.op);
  const opOfCall = new Map<string, number>();
  const perOp: number[] = [];
  const throttledSince = new Map<number, number>();
  const times: number[] = [];
  let deliveries = 0;
  let throttledResponses = 0;
  let throttledMs = 0;
  for (const e of events) {
    if (e.type === 'tool_call') {
      const op = e.caller === undefined ? undefined : opOfCaller.get(e.caller);
      if (op !== undefined) opOfCall.set(e.call, op);
    } else if (e.type === 'delivery') {
      deliveries++;
      times.push(e.t);
      const op = e.call === undefined ? undefined : opOfCall.get(e.call);
      if (op === undefined) continue;
      perOp[op] = (perOp[op] ?? 0) + 1;
      const since = throttledSince.get(op);
      if (since !== undefined) {
        throttledMs += e.t - since;
        throttledSince.delete(op);
      }
    } else if (e.type === 'response' && e.result === 'error' && e.status !== undefined && THROTTLE_STATUSES.has(e.status)) {
      throttledResponses++;
      const op = e.call === undefined ? undefined : opOfCall.get(e.call);
      if (op !== undefined && !throttledSince.has(op)) throttledSince.set(op, e.t);
    }
  }
  // Throttled and never sent again: the wait lasted until the call ended (or the trial did).
  for (const [op, since] of throttledSince) {
    const a = agents[Math.floor(op / callsPerAgent)];
    const end = a?.ops[op % callsPerAgent]?.endMs ?? endMs;
    throttledMs += Math.max(0, end - since);
  }
  const seen = new Set<string>();
  let duplicates = 0;
  for (const fx of world.ledger.effects) {
    const id = `${fx.service}\u0000${fx.effect}\u0000${fx.key}`;
    if (seen.has(id)) duplicates++;
    else seen.add(id);
  }
  return {
    stats: {
      logicalCalls: agents.reduce((n, a) => n + a.ops.length, 0),
      deliveries,
      duplicates,
      throttledResponses,
      throttledMs,
      load: loadHistogram(times),
    },
    perOp,
  };
}
