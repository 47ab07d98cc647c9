/** Hand-built run results for the reporters' tests: real metrics over made-up trials. */
import type { HistoryEvent, NewEvent, Verdict } from '../core/index.js';
import type { TrialEnd } from '../checks/record.js';
import { CellTally } from '../stats/CellTally.js';
import { ruleInfos } from '../stats/coverage.js';
import { finishRun, type RunResult } from '../runner/run.js';
import type { CheckResult, TrialResult } from '../runner/trial.js';
import { trialStats } from '../stats/trialStats.js';
import { TrialIndex } from '../checks/trialIndex.js';
import type { Effect } from '../world/ledger.js';

export interface FailSpec {
  readonly check: string;
  readonly message: string;
  readonly evidence?: readonly unknown[];
  /** An `unknown` verdict instead of a failed one. */
  readonly undecided?: boolean;
}

export interface TrialSpec {
  readonly scenario: string;
  readonly config: string;
  readonly runSeed: number;
  readonly trialIndex: number;
  readonly failures?: readonly FailSpec[];
  readonly end?: TrialEnd;
  /**
   * A scenario with heal and recovery: the trial's time to recover (null: never). The `recovery`
   * checker is judged, and fails when it is null (or when `failures` names it).
   */
  readonly recovery?: number | null;
}

const CHECKS = ['budget', 'duplicates', 'goal-state'] as const;

/** An event before `stamp` numbers it; `t` is virtual ms since the trial start. */
type Unstamped = NewEvent & { readonly t: number };

/** Numbers events in order. */
export function stamp(events: readonly Unstamped[]): HistoryEvent[] {
  // The spread cannot be proven to land in the right union member, but each input already is one.
  return events.map((e, seq) => ({ seq, ...e }) as HistoryEvent);
}

/**
 * One create_order call whose first attempt is a partial write lost as a timeout, retried
 * after a backoff; with `duplicate`, the retry commits the order a second time.
 */
export function sampleHistory(
  spec: Pick<TrialSpec, 'scenario' | 'config' | 'trialIndex'>,
  seed: number,
  duplicate: boolean,
): HistoryEvent[] {
  const key = duplicate ? 'idem-2' : 'idem-1';
  return stamp([...modelCallsTool(spec, seed), ...firstAttemptLost(), ...retry(key, duplicate), ...agentEnds()]);
}

/** The trial starts, and the model's first turn calls create_order. */
function modelCallsTool(spec: Pick<TrialSpec, 'scenario' | 'config' | 'trialIndex'>, seed: number): Unstamped[] {
  return [
    {
      t: 0,
      type: 'trial_start',
      scenario: spec.scenario,
      config: spec.config,
      trialIndex: spec.trialIndex,
      seed,
      startMs: 1_767_603_600_000,
    },
    {
      t: 0,
      type: 'model_turn',
      turn: 1,
      action: 'tool_calls',
      calls: [{ call: 'call-1', tool: 'create_order', input: { ref: 'ref-1' } }],
    },
    {
      t: 0,
      type: 'tool_call',
      turn: 1,
      call: 'call-1',
      tool: 'create_order',
      risk: 'write',
      honoursKeys: true,
      input: { ref: 'ref-1' },
    },
  ];
}

/** Attempt 1: the fault commits the order, and its answer is lost as a timeout; a backoff follows. */
function firstAttemptLost(): Unstamped[] {
  return [
    {
      t: 0,
      type: 'attempt',
      call: 'call-1',
      attempt: 1,
      tool: 'create_order',
      purpose: 'call',
      request: 'req-1',
      idempotencyKey: 'idem-1',
    },
    {
      t: 0,
      type: 'fault',
      request: 'req-1',
      tool: 'create_order',
      rule: 0,
      fault: { kind: 'partial_write', lostAs: 'timeout' },
    },
    { t: 0, type: 'delivery', request: 'req-1', tool: 'create_order', copy: 0, idempotencyKey: 'idem-1' },
    {
      t: 0,
      type: 'effect',
      request: 'req-1',
      service: 'orders',
      effect: 'order.created',
      key: 'ref-1',
      ledgerSeq: 0,
      idempotencyKey: 'idem-1',
    },
    { t: 10_000, type: 'response', request: 'req-1', tool: 'create_order', result: 'lost' },
    {
      t: 10_000,
      type: 'attempt_end',
      call: 'call-1',
      attempt: 1,
      purpose: 'call',
      request: 'req-1',
      result: 'error',
      error: { kind: 'timeout', message: 'no answer within 10000ms', retryable: true },
    },
    { t: 10_000, type: 'retry_wait', call: 'call-1', attempt: 1, ms: 412, reason: 'backoff' },
  ];
}

/** Attempt 2 with `key`: it answers 201; with `duplicate`, the order is committed a second time. */
function retry(key: string, duplicate: boolean): Unstamped[] {
  return [
    {
      t: 10_412,
      type: 'attempt',
      call: 'call-1',
      attempt: 2,
      tool: 'create_order',
      purpose: 'call',
      request: 'req-2',
      idempotencyKey: key,
    },
    { t: 10_412, type: 'delivery', request: 'req-2', tool: 'create_order', copy: 0, idempotencyKey: key },
    ...(duplicate
      ? [
          {
            t: 10_412,
            type: 'effect' as const,
            request: 'req-2',
            service: 'orders',
            effect: 'order.created',
            key: 'ref-1',
            ledgerSeq: 1,
            idempotencyKey: key,
          },
        ]
      : []),
    { t: 10_462, type: 'response', request: 'req-2', tool: 'create_order', result: 'ok', status: 201 },
    { t: 10_462, type: 'attempt_end', call: 'call-1', attempt: 2, purpose: 'call', request: 'req-2', result: 'ok' },
    { t: 10_462, type: 'outcome', call: 'call-1', tool: 'create_order', result: 'ok', attempts: 2 },
  ];
}

/** The runtime's feedback to the model, then the agent's end and the trial's. */
function agentEnds(): Unstamped[] {
  return [
    { t: 10_462, type: 'feedback', call: 'call-1', format: 'openai', isError: false, text: '{"id":"ord-1"}' },
    {
      t: 10_462,
      type: 'agent_end',
      outcome: 'completed',
      claims: [{ subject: 'orders:ref-1', status: 'succeeded' }],
      message: 'Order placed.',
    },
    { t: 10_462, type: 'trial_end', status: 'agent_ended' },
  ];
}

function ledgerOf(history: readonly HistoryEvent[]): Effect[] {
  return history.flatMap((e) =>
    e.type === 'effect'
      ? [
          {
            seq: e.ledgerSeq,
            at: 1_767_603_600_000 + e.t,
            service: e.service,
            effect: e.effect,
            key: e.key,
            request: e.request,
            data: { ref: e.key },
          },
        ]
      : [],
  );
}

/** A judged trial; a failure on `duplicates` also puts a duplicate effect in its history and ledger. */
export function makeTrial(spec: TrialSpec): TrialResult {
  const never = spec.recovery === null && !(spec.failures ?? []).some((f) => f.check === 'recovery');
  const failures = [
    ...(spec.failures ?? []),
    ...(never ? [{ check: 'recovery', message: 'the goal was never reached after the heal at t=3000ms' }] : []),
  ];
  const seed = spec.runSeed * 1000 + spec.trialIndex;
  const history = sampleHistory(
    spec,
    seed,
    failures.some((f) => f.check === 'duplicates'),
  );
  const ledger = ledgerOf(history);
  const verdictOf = (name: string): Verdict => {
    const f = failures.find((x) => x.check === name);
    if (!f) return { valid: true };
    return f.undecided
      ? { valid: 'unknown', message: f.message }
      : { valid: false, message: f.message, evidence: f.evidence ?? [] };
  };
  const names = [
    ...new Set([...CHECKS, ...(spec.recovery === undefined ? [] : ['recovery']), ...failures.map((f) => f.check)]),
  ];
  const checks: CheckResult[] = names.map((name) => ({ name, verdict: verdictOf(name) }));
  const common = {
    scenario: spec.scenario,
    config: spec.config,
    trialIndex: spec.trialIndex,
    seed,
    history,
    snapshot: { services: { orders: { 'ref-1': { id: 'ord-1' } } }, ledger, hash: `hash-${seed}` },
    end: spec.end ?? { kind: 'agent_ended', outcome: 'completed' },
    runSeed: spec.runSeed,
    refs: { scenario: spec.scenario, config: spec.config },
    checks,
    stats: {
      ...trialStats(new TrialIndex(history, ledger)),
      ...(spec.recovery !== undefined && { recovery: { timeToRecoverMs: spec.recovery, callsAfter: 0 } }),
    },
  } as const;
  const failed = checks.filter((c) => c.verdict.valid !== true).map((c) => c.name);
  return failed.length === 0 ? { ...common, status: 'passed' } : { ...common, status: 'failed', failed };
}

export interface CellSpec {
  readonly scenario: string;
  readonly config: string;
  /** Trials in the cell (default: the run's k). */
  readonly trials?: number;
  /** Failures by trial index. */
  readonly fail?: Readonly<Record<number, readonly FailSpec[]>>;
  /** A scenario with heal and recovery: each trial's time to recover, by index (null: never). */
  readonly recovery?: readonly (number | null)[];
  /** A matrix agent's cell (`agents` in faultline.config.ts): the agent it names in its refs. */
  readonly agent?: string;
}

export interface RunSpec {
  readonly seed?: number;
  readonly k?: number;
  readonly cells: readonly CellSpec[];
  readonly interrupted?: boolean;
  /** Failing trials each cell keeps in full (default: every trial is kept). */
  readonly keepFailures?: number;
}

/** A whole run, its scenarios and configurations listed in first-seen order. */
export function makeRun(spec: RunSpec): RunResult {
  const seed = spec.seed ?? 42;
  const k = spec.k ?? 4;
  const cells = spec.cells.map((c) => {
    // The plan of `sampleHistory`: its one fault rule.
    const rules = ruleInfos([
      { match: { tool: 'create_order', attempt: 1 }, fault: { kind: 'partial_write', lostAs: 'timeout' } },
    ]);
    const tally = new CellTally(
      c.scenario,
      c.config,
      { scenario: c.scenario, config: c.config, ...(c.agent !== undefined && { agent: c.agent }) },
      spec.keepFailures,
      rules,
    );
    for (let i = 0; i < (c.trials ?? k); i++)
      tally.add(
        makeTrial({
          scenario: c.scenario,
          config: c.config,
          runSeed: seed,
          trialIndex: i,
          failures: c.fail?.[i] ?? [],
          ...(c.recovery && { recovery: c.recovery[i] ?? null }),
        }),
      );
    return tally.cell();
  });
  return finishRun({
    seed,
    k,
    scenarios: [...new Set(cells.map((c) => c.scenario))],
    configs: [...new Set(cells.map((c) => c.config))],
    cells,
    interrupted: spec.interrupted ?? false,
    keepFailures: spec.keepFailures ?? null,
  });
}

/** Two configurations over two scenarios; `naive` duplicates an order in trial 1 and blows the budget in trial 3. */
export function sampleRun(): RunResult {
  return makeRun({
    seed: 42,
    k: 4,
    cells: [
      {
        scenario: 'order-partial-write',
        config: 'naive',
        fail: {
          1: [
            {
              check: 'duplicates',
              message: 'orders:ref-1 was created 2 times',
              evidence: [{ subject: 'orders:ref-1', effects: [0, 1] }],
            },
          ],
          3: [{ check: 'budget', message: 'call-1 made 5 attempts (limit 3)' }],
        },
      },
      { scenario: 'rate-limit-storm', config: 'naive' },
      { scenario: 'order-partial-write', config: 'rulebook' },
      { scenario: 'rate-limit-storm', config: 'rulebook' },
    ],
  });
}

/**
 * The end of every text report of `sampleRun()` under the default gates: the gates, then the
 * failing cell with its first verdict and replay command, then an empty line.
 */
export const SAMPLE_RUN_GATES_AND_FAILURES: readonly string[] = [
  'gates: 3 of 4 failed',
  '  ✗ pass^k>=1 failed in 1 of 4 cells: order-partial-write × naive (0)',
  '  ✗ duplicates==0 failed in 1 of 4 cells: order-partial-write × naive (1)',
  '  ✗ budget_violations==0 failed in 1 of 4 cells: order-partial-write × naive (1)',
  '  ✓ unexercised==0 held in 4 cells (worst 0)',
  '',
  'failures',
  '  ✗ order-partial-write × naive: 2 of 4 trials failed (duplicates, budget)',
  '      trial 1: duplicates: orders:ref-1 was created 2 times',
  '      replay: faultline replay order-partial-write --config naive --seed 42 --trial 1',
  '',
];
