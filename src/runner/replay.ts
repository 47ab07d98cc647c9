import type { TrialSummary } from '../stats/trialResult.js';

/** What identifies a trial for replay: its cell, the run seed and its index. */
export type ReplayTarget = Pick<TrialSummary, 'scenario' | 'config' | 'runSeed' | 'trialIndex'> &
  Partial<Pick<TrialSummary, 'refs' | 'recording'>>;

// Scenario names are slugs, but configuration names are free text: quote anything a shell would split or expand.
const SAFE = /^[A-Za-z0-9_./:=@%+-]+$/;

/** Quotes one argument for a POSIX shell, only when it needs it. */
export function shellQuote(arg: string): string {
  return SAFE.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

/**
 * The one command that reproduces a trial (every failure shown anywhere carries it).
 *
 * @example replayCommand(trial) // 'faultline replay order-partial-write --config naive --seed 42 --trial 3'
 */
export function replayCommand(trial: ReplayTarget): string {
  return [
    'faultline replay',
    shellQuote(trial.refs?.scenario ?? trial.scenario),
    '--config',
    shellQuote(trial.refs?.config ?? trial.config),
    ...(trial.refs?.agent !== undefined ? ['--agent', shellQuote(trial.refs.agent)] : []),
    ...(trial.refs?.behaviour !== undefined ? ['--behaviour', shellQuote(trial.refs.behaviour)] : []),
    '--seed',
    String(trial.runSeed),
    '--trial',
    String(trial.trialIndex),
    // A live trial is replayed from its recording: offline, with the answers it got.
    ...(trial.recording !== undefined ? ['--cassette', shellQuote(trial.recording)] : []),
  ].join(' ');
}
