import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonReport } from '../report/parseJsonReport.js';
import { renderJsonReport } from '../report/renderJsonReport.js';
import { loadConfigs, loadScenarios } from '../scenario/library.js';
import type { Scenario } from '../scenario/scenario.js';
import type { ExecutionConfigLike } from '../runtime/executionConfig.js';
import { runMatrix, type RunResult } from './run.js';
import { journalWriter, readJournal, runFromJournal, trialInProgress, type JournalEntry } from './runJournal.js';

const wallClock = { startedAt: '2026-01-05T09:00:00.000Z', finishedAt: '2026-01-05T09:00:02.000Z', durationMs: 2000 };
const DEATH = { cause: 'out of memory: V8 ran out of heap and ended it with SIGABRT' };

let folder: string;
let scenarios: Scenario[];
let configs: ExecutionConfigLike[];
let full: RunResult;
let journal: JournalEntry[];

// A whole run in this process, journalled as `run --workers 0` under a supervisor journals it (src/cli/executeRun.ts).
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'faultline-journal-'));
  scenarios = await loadScenarios(['read-timeout-retry', 'order-partial-write-idempotent']);
  configs = await loadConfigs(['naive']);
  const file = join(folder, 'journal.ndjson');
  const note = journalWriter(file);
  let running: JournalEntry['job'] | undefined;
  full = await runMatrix({
    scenarios,
    configs,
    k: 2,
    seed: 1,
    keepFailures: 5,
    onTrialStart: (job) => note({ kind: 'start', job: (running = job) }),
    onTrial: (trial) => note({ kind: 'trial', job: running!, trial }),
  });
  journal = readJournal(file);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const options = (): Parameters<typeof runFromJournal>[0] => ({ scenarios, configs, k: 2, seed: 1, keepFailures: 5 });

describe('runFromJournal: the run a dead process leaves', () => {
  it('the journal holds each trial started and finished, in order, through its JSON lines', () => {
    expect(journal.map((e) => e.kind)).toEqual([
      'start',
      'trial',
      'start',
      'trial',
      'start',
      'trial',
      'start',
      'trial',
    ]);
    expect(journal.filter((e) => e.kind === 'trial').map((e) => e.trial.trialIndex)).toEqual([0, 1, 0, 1]);
  });

  it('died in trial 0 of the second cell: the first cell as the full run had it, that trial crashed, stopped and named', async () => {
    const { run, trial } = await runFromJournal(options(), journal.slice(0, 5), DEATH);
    expect(trial).toMatchObject({
      scenario: 'order-partial-write-idempotent',
      config: 'naive',
      trialIndex: 0,
      runSeed: 1,
    });
    expect(run.interrupted).toBe(true);
    expect(run.stopped).toEqual({
      reason: 'process-died',
      cause: DEATH.cause,
      trial: 'order-partial-write-idempotent × naive trial 0',
    });
    expect(run.cells).toHaveLength(2);
    expect(JSON.stringify(run.cells[0])).toBe(JSON.stringify(full.cells[0]));
    const died = run.cells[1]!;
    expect(died.metrics.trials).toBe(1);
    expect(died.metrics.ends).toEqual({ crashed: 1 });
    const end = died.trials[0]!.end;
    expect('message' in end ? end.message : '').toBe(
      `the CLI's own process died while this trial ran in it (--workers 0): ${DEATH.cause}`,
    );
  });

  it('a process that died with no trial running (after one ended): the trials that finished, no trial named', async () => {
    const { run, trial } = await runFromJournal(options(), journal.slice(0, 4), DEATH);
    expect(trial).toBeUndefined();
    expect(run.stopped).toEqual({ reason: 'process-died', cause: DEATH.cause });
    expect(run.cells.map((c) => c.metrics.trials)).toEqual([2]);
  });

  it('the reports take it: the JSON report holds run.stopped and parses back', async () => {
    const { run } = await runFromJournal(options(), journal.slice(0, 5), DEATH);
    const parsed = parseJsonReport(renderJsonReport(run, { wallClock, gates: [] }));
    expect(parsed.run.stopped).toEqual(run.stopped);
    expect(parsed.run.trials).toBe(3);
  });
});

describe('readJournal', () => {
  it('leaves out a last line cut short by the death, and finds the trial in progress before it', () => {
    const file = join(folder, 'torn.ndjson');
    const lines = journal.slice(0, 5).map((e) => JSON.stringify(e));
    writeFileSync(file, `${lines.join('\n')}\n${lines[1]!.slice(0, 40)}`);
    const read = readJournal(file);
    expect(read).toHaveLength(5);
    expect(trialInProgress(read)).toEqual(journal[4]!.job);
  });

  it('a journal never written (the process died loading) is empty', () => {
    expect(readJournal(join(folder, 'none.ndjson'))).toEqual([]);
    expect(trialInProgress([])).toBeUndefined();
  });
});
