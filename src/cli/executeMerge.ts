import { readFile } from 'node:fs/promises';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { parseGate, withCoverageGate, type Gate } from '../stats/gates.js';
import { mergeRuns } from '../runner/mergeRuns.js';
import { parseJsonReport, runFromJsonReport, type JsonReport, type WallClock } from '../report/json.js';
import type { ReporterName } from '../report/write.js';
import { ExitCode } from './exitCodes.js';
import { assertWritableFolder } from './outputPaths.js';
import { reportRun } from './reportRun.js';
import type { Io } from './io.js';
import { DEFAULT_REPORTERS } from './options.js';

export interface MergeRequest {
  readonly reports: readonly string[];
  readonly outDir: string;
  readonly gates?: readonly Gate[];
  readonly reporters?: readonly ReporterName[];
}

async function readReport(file: string): Promise<JsonReport> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new FaultlineError(
      FaultlineErrorCode.NotFound,
      `${file}: cannot read the report (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  return parseJsonReport(text, file);
}

/** The shards together took from the first start to the last finish. */
function spanOf(clocks: readonly WallClock[]): WallClock {
  const startedAt = clocks.map((c) => c.startedAt).reduce((a, b) => (Date.parse(b) < Date.parse(a) ? b : a));
  const finishedAt = clocks.map((c) => c.finishedAt).reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
  return { startedAt, finishedAt, durationMs: Math.max(0, Date.parse(finishedAt) - Date.parse(startedAt)) };
}

/** Reads the shard reports, merges them, and reports the whole run as `faultline run` would have. */
export async function executeMerge(request: MergeRequest, io: Io): Promise<ExitCode> {
  await assertWritableFolder(request.outDir, '--out');
  const reports: JsonReport[] = [];
  for (const file of request.reports) reports.push(await readReport(file));
  const run = mergeRuns(reports.map(runFromJsonReport), request.reports);
  // The gates the shards were run with, unless the merge names its own.
  const gates =
    request.gates && request.gates.length > 0
      ? withCoverageGate(request.gates)
      : reports[0]!.gates.results.map((g) => parseGate(g.gate));
  const code = await reportRun(
    run,
    {
      outDir: request.outDir,
      view: 'summary',
      gates,
      reporters: request.reporters && request.reporters.length > 0 ? request.reporters : DEFAULT_REPORTERS,
      wallClock: spanOf(reports.map((r) => r.wallClock)),
    },
    io,
  );
  if (run.interrupted) {
    io.stderr.write('faultline: a shard was interrupted; the merged reports cover only the trials that finished\n');
    return ExitCode.GateFailed;
  }
  return code;
}
