import { appendFileSync, readFileSync } from 'node:fs';
import { asExecutionConfig } from '../runtime/executionConfig.js';
import { withAddedFaults } from '../scenario/addedFaults.js';
import { refOf } from '../scenario/library.js';
import type { RunResult } from '../stats/runResult.js';
import type { TrialJob } from './matrixJobs.js';
import type { ReplayTarget } from './replay.js';
import { cellTallies, resultOf, type RunOptions } from './run.js';
import { runTrial, summarise, type TrialSummary } from './trial.js';

/**
 * One line of a run's journal (NDJSON): a trial about to run in the process, or one that finished, as the run took it
 * (its cell's label). A process that dies leaves the trials it finished and the one it died in.
 */
export type JournalEntry =
  | { readonly kind: 'start'; readonly job: TrialJob }
  | { readonly kind: 'trial'; readonly job: TrialJob; readonly trial: TrialSummary };

/**
 * Appends each entry to `file` synchronously: the line is the kernel's before the agent's code runs again, so a process
 * that V8 aborts a moment later still leaves it.
 */
export function journalWriter(file: string): (entry: JournalEntry) => void {
  return (entry) => appendFileSync(file, `${JSON.stringify(entry)}\n`);
}

/** The entries of a journal; a last line cut short by the process's death is left out. */
export function readJournal(file: string): JournalEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const entries: JournalEntry[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      entries.push(JSON.parse(line) as JournalEntry);
    } catch {
      break;
    }
  }
  return entries;
}

/** The trial a journal says was running when its process died: started, not finished. */
export function trialInProgress(entries: readonly JournalEntry[]): TrialJob | undefined {
  const last = entries.at(-1);
  return last?.kind === 'start' ? last.job : undefined;
}

/** What ended a run's process, as the supervisor that watched it saw it. */
export interface ProcessDeath {
  /** How it died, in words: `V8 ran out of heap memory (SIGABRT)`, `killed by SIGKILL`. */
  readonly cause: string;
}

/**
 * The run its journal holds, after its process died: the trials that finished as they were, the one in progress judged
 * `crashed` with the cause (from a fresh world: what the agent did went down with the process, as with a lost worker),
 * the run marked interrupted and `stopped` by the process's death. `options` are the ones the run was started with.
 */
export async function runFromJournal(
  options: Pick<RunOptions, 'scenarios' | 'configs' | 'k' | 'seed' | 'keepFailures' | 'shard' | 'addedFaults'>,
  entries: readonly JournalEntry[],
  death: ProcessDeath,
): Promise<{ readonly run: RunResult; readonly trial?: ReplayTarget }> {
  const configRefs = options.configs.map((c) => refOf(c));
  const configs = options.configs.map(asExecutionConfig);
  const planned = options.scenarios.map((s) => withAddedFaults(s, options.addedFaults));
  const tallies = cellTallies(options.scenarios, configs, configRefs, planned, options.keepFailures);
  for (const entry of entries) if (entry.kind === 'trial') tallies[entry.job.cell]?.add(entry.trial);
  const job = trialInProgress(entries);
  const tally = job && tallies[job.cell];
  let trial: ReplayTarget | undefined;
  if (job !== undefined && tally !== undefined) {
    const message = `the CLI's own process died while this trial ran in it (--workers 0): ${death.cause}`;
    const lost = await runTrial({
      scenario: planned[job.scenario]!,
      config: configs[job.config]!,
      runSeed: options.seed,
      trialIndex: job.trialIndex,
      refs: tally.refs,
      lost: { kind: 'crashed', message },
    });
    const summary = summarise(lost, true);
    tally.add(summary.config === tally.config ? summary : { ...summary, config: tally.config });
    trial = {
      scenario: summary.scenario,
      config: configs[job.config]!.name,
      runSeed: options.seed,
      trialIndex: job.trialIndex,
      refs: tally.refs,
    };
  }
  const run = resultOf(options, configs, tallies, true);
  const stopped = {
    reason: 'process-died' as const,
    cause: death.cause,
    ...(trial && { trial: `${trial.scenario} × ${tally!.config} trial ${trial.trialIndex}` }),
  };
  return { run: { ...run, stopped }, ...(trial && { trial }) };
}
