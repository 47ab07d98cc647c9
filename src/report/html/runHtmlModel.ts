import type { HistoryEvent } from '../../core/index.js';
import type { Interval } from '../../stats/intervals.js';
import { notExercisedMessage, unexercised } from '../../stats/coverage.js';
import type { JsonReport } from '../json.js';
import { columnWord, type ColumnWord } from '../columnWord.js';
import { describeEvent } from '../timeline.js';

/** Where an event happened: the timeline draws one lane each. */
export const LANES = ['agent', 'execution', 'wire', 'services'] as const;
export type Lane = (typeof LANES)[number];

const LANE_OF: Record<HistoryEvent['type'], Lane> = {
  trial_start: 'agent',
  model_turn: 'agent',
  model_error: 'agent',
  agent_wait: 'agent',
  agent_start: 'agent',
  agent_end: 'agent',
  agent_crash: 'agent',
  agent_restart: 'agent',
  kv: 'agent',
  trial_end: 'agent',
  tool_call: 'execution',
  operation: 'execution',
  attempt: 'execution',
  attempt_end: 'execution',
  retry_wait: 'execution',
  give_up: 'execution',
  reconcile: 'execution',
  outcome: 'execution',
  feedback: 'execution',
  http_request: 'wire',
  fault: 'wire',
  lie: 'wire',
  // Where the faults are applied, and where they end.
  heal: 'wire',
  response: 'wire',
  escape: 'wire',
  unserved_request: 'wire',
  delivery: 'services',
  effect: 'services',
  // A tool's local command is the service it stands for.
  command_start: 'services',
  command_end: 'services',
  process_left: 'services',
};

/** Events the page marks: a fault, an effect, an effect that repeats one already made (same effect, same key), and the heal. */
export type EventMark = 'fault' | 'effect' | 'duplicate' | 'heal' | 'none';

export interface EventView {
  readonly seq: number;
  readonly t: number;
  readonly type: string;
  readonly lane: Lane;
  readonly mark: EventMark;
  readonly text: string;
}

export interface EvidenceView {
  /** The evidence as the checker gave it. */
  readonly data: unknown;
  /** The `seq` of every event it names (by event index, request id or effect), in order. */
  readonly events: readonly number[];
}

export interface CheckView {
  readonly name: string;
  readonly valid: true | false | 'unknown';
  readonly message: string;
  readonly evidence: readonly EvidenceView[];
}

/** One line of the final state against the goal: a path the goal names, or an effect count. */
export interface StateDiffView {
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

export interface TrialView {
  readonly index: number;
  readonly status: 'passed' | 'failed' | 'infra-error';
  readonly failed: readonly string[];
  readonly end: string;
  readonly replay: string;
  readonly durationMs: number;
  /** The clock the trial's times are on: `wall` for a `command` agent's (real milliseconds). */
  readonly clock: 'virtual' | 'wall';
  readonly checks: readonly CheckView[];
  readonly events: readonly EventView[];
  readonly diff: readonly StateDiffView[];
  /** A live trial's model exchanges: what the agent sent since the model last spoke, and what it answered (empty for others). */
  readonly exchanges: NonNullable<JsonTrial['exchanges']>;
}

export interface CellView {
  readonly id: string;
  readonly scenario: string;
  readonly config: string;
  readonly status: 'passed' | 'failed';
  readonly trials: number;
  readonly successes: number;
  readonly pass1: number;
  readonly passK: number;
  /** 95% intervals of pass1 and passK, `[lower, upper]`. */
  readonly pass1Interval: Interval;
  readonly passKInterval: Interval;
  readonly duplicates: number;
  readonly budgetViolations: number;
  readonly checkFailures: Readonly<Record<string, number>>;
  readonly elided: number;
  readonly verdicts: readonly {
    readonly status: string;
    readonly failed: readonly string[];
    readonly trials: number;
    readonly first: number;
    readonly replay: string;
  }[];
  readonly kept: readonly TrialView[];
  /** Fault coverage: each rule of the cell's plan, the trials it fired in and its firings. */
  readonly coverage: JsonCell['metrics']['coverage'];
  /** Why the cell is not exercised: one line per rule that never fired (empty when every rule fired). */
  readonly notExercised: readonly string[];
  /** A scenario with heal and recovery: trials recovered, the rate's 95% interval, time to recover (ms; null: never). */
  readonly recovery?: {
    readonly recovered: number;
    readonly trials: number;
    readonly interval: Interval;
    readonly p50: number | null;
    readonly p95: number | null;
  };
}

/** What report.html embeds: the JSON report's data, shaped for the page. */
export interface RunHtmlModel {
  readonly title: string;
  readonly run: {
    readonly seed: number;
    readonly k: number;
    readonly trials: number;
    readonly failedTrials: number;
    readonly keepFailures: number | null;
    readonly interrupted: boolean;
    /** What the cells' second label is: a configuration, a matrix agent, or either. */
    readonly columns: ColumnWord;
  };
  readonly lanes: readonly Lane[];
  readonly cells: readonly CellView[];
  /** The gates as the run judged them. */
  readonly gates: readonly { readonly gate: string; readonly passed: boolean; readonly message: string }[];
}

type JsonCell = JsonReport['cells'][number];
type JsonTrial = JsonCell['trials'][number];

const isRecord = (v: unknown): v is Readonly<Record<string, unknown>> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The events a piece of evidence names. Checkers name events three ways: `event` (an index
 * into the history, which is its `seq`), `seq` (an event's seq, except inside an `effects`
 * list, where it is the effect's ledger number) and request ids (`request`, `requests`,
 * `requestIds`), which stand for every event of that request (except inside an `effects`
 * list: there the entry names its effect alone).
 */
export function evidenceEvents(evidence: unknown, history: readonly HistoryEvent[]): number[] {
  const seqs = new Set<number>();
  const ledger = new Set<number>();
  const requests = new Set<string>();
  const walk = (v: unknown, parentKey: string): void => {
    if (Array.isArray(v)) {
      for (const item of v) {
        if (typeof item === 'string' && (parentKey === 'requests' || parentKey === 'requestIds')) requests.add(item);
        else walk(item, parentKey);
      }
      return;
    }
    if (!isRecord(v)) return;
    for (const [key, value] of Object.entries(v)) {
      if (key === 'event' && typeof value === 'number') seqs.add(value);
      else if (key === 'seq' && typeof value === 'number') (parentKey === 'effects' ? ledger : seqs).add(value);
      // An entry of an `effects` list names that effect; the request it came from is context.
      else if (key === 'request' && typeof value === 'string') {
        if (parentKey !== 'effects') requests.add(value);
      } else walk(value, key);
    }
  };
  walk(evidence, '');
  return history
    .filter(
      (e) =>
        seqs.has(e.seq) ||
        ('request' in e && requests.has(e.request)) ||
        (e.type === 'effect' && ledger.has(e.ledgerSeq)),
    )
    .map((e) => e.seq);
}

function eventViews(history: readonly HistoryEvent[]): EventView[] {
  const seen = new Set<string>();
  return history.map((e) => {
    let mark: EventMark = 'none';
    if (e.type === 'fault') mark = 'fault';
    else if (e.type === 'heal') mark = 'heal';
    else if (e.type === 'effect') {
      const id = `${e.service}\u0000${e.effect}\u0000${e.key}`;
      mark = seen.has(id) ? 'duplicate' : 'effect';
      seen.add(id);
    }
    return { seq: e.seq, t: e.t, type: e.type, lane: LANE_OF[e.type], mark, text: describeEvent(e)[1] };
  });
}

/** The goal-state checker's evidence, as lines of goal against final state. */
function stateDiff(trial: JsonTrial): StateDiffView[] {
  const goal = trial.checks.find((c) => c.name === 'goal-state');
  if (goal?.verdict.valid !== false) return [];
  return goal.verdict.evidence.flatMap((ev): StateDiffView[] => {
    if (!isRecord(ev)) return [];
    if (typeof ev['path'] === 'string') return [{ path: ev['path'], expected: ev['expected'], actual: ev['actual'] }];
    if (typeof ev['effect'] === 'string')
      return [{ path: `effect ${ev['effect']} (times)`, expected: ev['expected'], actual: ev['actual'] }];
    if (typeof ev['outcome'] === 'string')
      return [{ path: 'agent outcome', expected: ev['expected'], actual: ev['outcome'] }];
    return [];
  });
}

const endText = (end: JsonTrial['end']): string => {
  switch (end.kind) {
    case 'agent_ended':
      return `agent ended: ${end.outcome}`;
    case 'crashed':
      return `crashed: ${end.message}`;
    case 'hung':
      return `hung at ${end.at}ms`;
    case 'budget_exceeded':
      return `stopped at ${end.at}ms: ${end.limit} budget`;
    case 'infra_error':
      return `infra-error (the model provider failed, not judged): ${end.message}`;
  }
};

function trialView(t: JsonTrial, clock: TrialView['clock']): TrialView {
  const history = t.history ?? [];
  return {
    index: t.index,
    status: t.status,
    failed: t.failed,
    end: endText(t.end),
    replay: t.replay,
    durationMs: t.stats.durationMs,
    clock,
    checks: t.checks.map((c) =>
      c.verdict.valid === false
        ? {
            name: c.name,
            valid: false,
            message: c.verdict.message,
            evidence: c.verdict.evidence.map((data) => ({ data, events: evidenceEvents(data, history) })),
          }
        : {
            name: c.name,
            valid: c.verdict.valid,
            message: c.verdict.valid === 'unknown' ? c.verdict.message : '',
            evidence: [],
          },
    ),
    events: eventViews(history),
    diff: stateDiff(t),
    exchanges: t.exchanges ?? [],
  };
}

function cellView(c: JsonCell, i: number): CellView {
  const m = c.metrics;
  return {
    id: `c${i}`,
    scenario: c.scenario,
    config: c.config,
    status: c.status,
    trials: m.trials,
    successes: m.successes,
    pass1: m.passHat[0] ?? 0,
    passK: m.passHat.at(-1) ?? 0,
    // The report always carries them (its reader accepts a report without: then the widest band).
    pass1Interval: m.intervals?.passHat[0] ?? [0, 1],
    passKInterval: m.intervals?.passHat.at(-1) ?? [0, 1],
    duplicates: m.duplicateEffects,
    budgetViolations: m.budgetViolations,
    checkFailures: Object.fromEntries(Object.entries(m.checkFailures).filter(([, n]) => n > 0)),
    elided: c.elided,
    verdicts: c.verdicts.map((g) => ({
      status: g.status,
      failed: g.failed,
      trials: g.trials,
      first: g.first,
      replay: g.replay,
    })),
    kept: c.trials.map((t) => trialView(t, c.clock === 'real' ? 'wall' : 'virtual')),
    coverage: m.coverage,
    notExercised: unexercised(m.coverage, m.trials).map((r) => notExercisedMessage(r, m.trials)),
    ...(m.recovery && {
      recovery: {
        recovered: m.recovery.recovered,
        trials: m.recovery.trials,
        interval: m.recovery.interval ?? ([0, 1] as const),
        p50: m.recovery.timeToRecoverMs.p50,
        p95: m.recovery.timeToRecoverMs.p95,
      },
    }),
  };
}

// A cell not exercised is as bad as a failing one: its passing trials proved nothing.
const bad = (c: CellView): boolean => c.status === 'failed' || c.notExercised.length > 0;
const failFirst = (a: CellView, b: CellView): number => (bad(a) === bad(b) ? a.pass1 - b.pass1 : bad(a) ? -1 : 1);

/**
 * The page's data from a JSON report: failing cells first (the lowest pass^1 first), each cell's kept trials with
 * lanes, marks and linked evidence.
 */
export function runHtmlModel(report: JsonReport): RunHtmlModel {
  const { seed, k, trials, failedTrials, keepFailures, interrupted } = report.run;
  // A stable sort: cells that fail alike keep the report's order.
  const cells = report.cells.map(cellView).sort(failFirst);
  return {
    title: `faultline run: ${failedTrials} of ${trials} trials failed`,
    run: { seed, k, trials, failedTrials, keepFailures, interrupted, columns: columnWord(report.cells) },
    lanes: LANES,
    cells,
    gates: report.gates.results.map((g) => ({ gate: g.gate, passed: g.passed, message: g.message })),
  };
}
