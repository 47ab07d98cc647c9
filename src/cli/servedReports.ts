import { RealClock, wallMs } from '../core/clock/RealClock.js';
import { CellTally } from '../stats/CellTally.js';
import { ruleInfos } from '../stats/coverage.js';
import { DEFAULT_GATES } from '../stats/gates.js';
import { refOf } from '../scenario/library.js';
import { finishRun } from '../runner/run.js';
import type { Scenario } from '../scenario/scenario.js';
import { summarise, type TrialResult } from '../runner/trial.js';
import type { Io } from './io.js';
import { reportRun } from './reportRun.js';

/** When a served session started, for its reports' wall-clock line. */
export interface SessionClock {
  readonly startedAt: string;
  readonly started: number;
}

export function sessionClock(): SessionClock {
  return { startedAt: new Date(new RealClock().now()).toISOString(), started: wallMs() };
}

/**
 * Writes the report files `run` writes (JSON, JUnit, Markdown) for the trials a served session
 * judged, as one cell of `scenario` under `config` on the wall clock, with `run`'s default
 * gates. The console summary is not printed: each trial's verdicts already were.
 */
export async function writeServedReports(
  scenario: Scenario,
  config: string,
  seed: number,
  trials: readonly TrialResult[],
  outDir: string,
  clock: SessionClock,
  io: Io,
): Promise<void> {
  const tally = new CellTally(
    scenario.name,
    config,
    { scenario: refOf(scenario), config },
    undefined,
    ruleInfos(scenario.faults),
    'real',
  );
  for (const trial of trials) tally.add(summarise(trial, true));
  const run = finishRun({
    seed,
    k: trials.length,
    scenarios: [scenario.name],
    configs: [config],
    cells: trials.length > 0 ? [tally.cell()] : [],
    interrupted: false,
    keepFailures: null,
  });
  const wallClock = {
    startedAt: clock.startedAt,
    finishedAt: new Date(new RealClock().now()).toISOString(),
    durationMs: Math.round(wallMs() - clock.started),
  };
  await reportRun(
    run,
    { outDir, view: 'summary', gates: DEFAULT_GATES, reporters: ['json', 'junit', 'markdown'], wallClock },
    io,
  );
}
