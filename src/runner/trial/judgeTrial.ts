import { runCheckers, BUILTIN_CHECKERS, measureRecovery, MODEL_MISTAKE_KINDS, TrialIndex } from '../../checks/index.js';
import type { Checker } from '../../checks/checker.js';
import type { Expectations, TrialRecord } from '../../checks/record.js';
import { scrubSecrets } from '../../core/secretText.js';
import type { Scenario } from '../../scenario/scenario.js';
import { trialStats, type TrialStats } from '../../stats/trialStats.js';
import type { TrialCommon, TrialResult } from '../../stats/trialResult.js';

/** What each scenario's checkers are told to expect. */
export function expectationsOf(scenario: Scenario): Expectations {
  return {
    goal: scenario.goal,
    budget: scenario.budget,
    secrets: scenario.secrets,
    ...(scenario.heal && { heal: scenario.heal }),
    ...(scenario.recovery && { recovery: scenario.recovery }),
  };
}

// `recovery` judges a recovery expectation, `model-mistakes` the model's own mistakes: a scenario without them is
// not judged by them (nor reported under them). Listed once, not filtered again for every trial.
const WITHOUT_RECOVERY: readonly Checker[] = Object.freeze(
  BUILTIN_CHECKERS.filter((c) => c.name !== 'recovery' && c.name !== 'model-mistakes'),
);
const WITHOUT_MODEL_MISTAKES: readonly Checker[] = Object.freeze(
  BUILTIN_CHECKERS.filter((c) => c.name !== 'model-mistakes'),
);

const WITHOUT_RECOVERY_JUDGING_MISTAKES: readonly Checker[] = Object.freeze(
  BUILTIN_CHECKERS.filter((c) => c.name !== 'recovery'),
);

/** Whether a rule of the scenario makes the model's own mistakes (`truncated` counts where it says `at`, or names a model route). */
const makesModelMistakes = (scenario: Scenario): boolean =>
  scenario.faults.some(
    (r) =>
      MODEL_MISTAKE_KINDS.has(r.fault.kind) ||
      (r.fault.kind === 'truncated' &&
        (r.fault.at !== undefined ||
          // A rule that names no tool strikes the model's routes too, where the scenario has a model.
          (r.match.tool === undefined && scenario.model !== undefined) ||
          [r.match.tool ?? []].flat().some((t) => t.startsWith('model:')))),
  );

export function checkersOf(scenario: Scenario): readonly Checker[] {
  // The scenario schema only admits built-in names, so the filter drops nothing.
  if (scenario.checks) return BUILTIN_CHECKERS.filter((c) => scenario.checks?.includes(c.name));
  const mistakes = makesModelMistakes(scenario);
  // A restart after `crash.agent` that never finishes fails `recovery`, with or without a heal: it is judged there.
  if (scenario.recovery || scenario.crash?.agent) return mistakes ? BUILTIN_CHECKERS : WITHOUT_MODEL_MISTAKES;
  return mistakes ? WITHOUT_RECOVERY_JUDGING_MISTAKES : WITHOUT_RECOVERY;
}

/** Command-line names for the replay command (default: the scenario's and configuration's names). */
export type TrialRefs = {
  readonly scenario: string;
  readonly config: string;
  readonly agent?: string;
  readonly behaviour?: string;
};

/** What a live trial adds to its record: its recording's file, its model, its exchanges with the model. */
export type LiveParts = Pick<TrialCommon, 'recording' | 'model' | 'exchanges'>;

/** What a trial's status adds to its record. */
type TrialVerdict =
  | { readonly status: 'passed' }
  | { readonly status: 'failed'; readonly failed: readonly string[] }
  | { readonly status: 'infra-error'; readonly message: string };

/** A judged trial before it is scrubbed: its record, checks and stats, its verdict, and the secrets its scenario declares. */
export interface Judged {
  readonly common: TrialCommon;
  readonly verdict: TrialVerdict;
  readonly secrets: readonly string[] | undefined;
}

// Object.assign for the same reason as `common` in `judgeRecord`: the verdict's keys are new to the record.
// An infra error's message is the provider's or gateway's own text, which may echo what it was sent: scrubbed too.
export const scrubbed = ({ common, verdict, secrets }: Judged): TrialResult =>
  Object.assign(
    {},
    scrubSecrets(common, secrets),
    verdict.status === 'infra-error' ? scrubSecrets(verdict, secrets) : verdict,
  ) as TrialResult;

/** Every checker over a finished trial's record, its stats, and the record scrubbed of secrets. */
export function judgeTrial(
  scenario: Scenario,
  record: TrialRecord,
  runSeed: number,
  refs: TrialRefs | undefined,
  live: LiveParts = {},
): TrialResult {
  return scrubbed(judgeRecord(scenario, record, runSeed, refs, live));
}

/** Every checker over a finished trial's record and its stats, not yet scrubbed. */
export function judgeRecord(
  scenario: Scenario,
  record: TrialRecord,
  runSeed: number,
  refs: TrialRefs | undefined,
  live: LiveParts,
): Judged {
  const { config: configName } = record;
  // The provider failed, not the agent: no checker judges what the agent did meanwhile.
  const infra = record.end.kind === 'infra_error' ? record.end.message : undefined;
  const expect = expectationsOf(scenario);
  const checks = infra === undefined ? runCheckers(record, expect, checkersOf(scenario)) : [];
  const recovered = measureRecovery(record, expect);
  // The checkers' index of this record: the stats reuse its traffic view, inputs and loads.
  const counted = trialStats(TrialIndex.of(record), scenario.goal.outcome);
  // Copied only to add the recovery (most scenarios expect none): a spread of its 13 keys cost a new object every trial.
  const stats: TrialStats = recovered
    ? { ...counted, recovery: { timeToRecoverMs: recovered.timeToRecoverMs, callsAfter: recovered.callsAfter.length } }
    : counted;
  const failed = checks.filter((c) => c.verdict.valid !== true).map((c) => c.name);
  // R13 at the source: the checkers judge the raw record; every report, replay and console line reads it scrubbed.
  // Object.assign, not `{ ...record, runSeed, … }`: V8 (Node 20) makes a new map for each key added after a leading
  // spread, ≈ 1 µs a key, every trial.
  const common: TrialCommon = Object.assign(
    {},
    record,
    { runSeed, refs: refs ?? { scenario: scenario.name, config: configName }, checks, stats },
    live,
  );
  const verdict: TrialVerdict =
    infra !== undefined
      ? { status: 'infra-error', message: infra }
      : failed.length === 0
        ? { status: 'passed' }
        : { status: 'failed', failed };
  return { common, verdict, secrets: scenario.secrets };
}
