import { appendFile, readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { redactText } from '../core/redactText.js';
import { gatesPassed, type Gate } from '../stats/gates.js';
import type { RunResult } from '../runner/run.js';
import { colorEnabled } from '../report/console.js';
import { renderMarkdownReport } from '../report/markdown.js';
import type { WallClock } from '../report/json.js';
import { isConsoleReporter, writeReports, type ReporterName } from '../report/write.js';
import { formatCost } from '../model/live/prices.js';
import { renderComparison } from './compareTable.js';
import { ExitCode } from './exitCodes.js';
import type { Io } from './io.js';

/** A path as a person reads it: relative to the working folder when inside it. */
export const shown = (path: string): string => {
  const rel = relative(process.cwd(), path);
  return rel === '' || rel.startsWith('..') ? path : rel;
};

export interface ReportRequest {
  readonly outDir: string;
  readonly view: 'summary' | 'compare';
  readonly html?: boolean;
  readonly gates: readonly Gate[];
  readonly reporters: readonly ReporterName[];
  readonly wallClock: WallClock;
  readonly quiet?: boolean;
  /** `--otlp-endpoint`: where the OTLP traces are posted once written. */
  readonly otlpEndpoint?: URL;
  /** `--otlp-all`: asks for the otlp reporter too. */
  readonly otlpAll?: boolean;
  /** The run stopped because this many trials failed (`--bail`), not for a signal. */
  readonly bailedAfter?: number;
}

/** Writes a finished run's reports, prints its summary, and says what the exit code is: for `run`, `compare` and `merge`. */
export async function reportRun(run: RunResult, request: ReportRequest, io: Io): Promise<ExitCode> {
  const { gates, wallClock } = request;
  const otlpAsked = request.otlpEndpoint !== undefined || request.otlpAll === true;
  const reporters: readonly ReporterName[] =
    otlpAsked && !request.reporters.includes('otlp') ? [...request.reporters, 'otlp'] : request.reporters;
  const color = colorEnabled(io.stdout, io.env);
  const compare = request.view === 'compare';
  const written = await writeReports(run, {
    outDir: request.outDir,
    // The comparison replaces the console summary; the files are the same either way.
    reporters: compare ? reporters.filter((r) => !isConsoleReporter(r)) : reporters,
    wallClock,
    gates,
    color,
    quiet: request.quiet === true,
  });
  if (compare && reporters.some(isConsoleReporter))
    io.stdout.write(renderComparison(run, { gates: written.gates, color }));
  else if (written.console !== undefined) io.stdout.write(written.console);

  const summaryFile = io.env['GITHUB_STEP_SUMMARY'];
  if (summaryFile) await appendFile(summaryFile, `${renderMarkdownReport(run, { gates: written.gates })}\n`);

  const html =
    request.html === true
      ? [await (await import('../report/html/writeCompareHtml.js')).writeCompareHtml(run, request.outDir)]
      : [];
  const files = [...Object.values(written.paths), ...html].map(shown);
  if (files.length > 0) io.stdout.write(`\nreports: ${files.join(', ')}\n`);
  const exported = await exportTraces(request.otlpEndpoint, written.paths.otlp, io);
  const finished = run.cells.reduce((a, c) => a + c.metrics.trials + (c.metrics.infraErrors ?? 0), 0);
  if (run.interrupted && request.bailedAfter !== undefined) {
    // A bail is a failure, not a stop signal: the exit code is a failing run's.
    io.stderr.write(
      `faultline: stopped after ${request.bailedAfter} failing ${request.bailedAfter === 1 ? 'trial' : 'trials'} (--bail ` +
        `${request.bailedAfter}); the reports cover the ${finished} trials that finished\n`,
    );
    return ExitCode.GateFailed;
  }
  const stop = run.stopped;
  if (stop?.reason === 'max-cost') {
    // Stopped at the spending limit: the gates cannot pass on a run that did not finish.
    io.stderr.write(
      `faultline: stopped at --max-cost ${stop.limit} (${formatCost(stop.spent)} spent); ` +
        `the reports cover the ${finished} trials that finished\n`,
    );
    return ExitCode.GateFailed;
  }
  if (stop?.reason === 'process-died') {
    // The supervisor's reports (`--workers 0`): a trial that took the process with it failed; with none running, ours did.
    io.stderr.write(
      `faultline: the process that ran the trials died${stop.trial === undefined ? '' : ` in ${stop.trial}`} ` +
        `(${stop.cause}); the reports cover the ${stop.trial === undefined ? finished : finished - 1} trials ` +
        `that finished${stop.trial === undefined ? '' : ' before it, and that one, judged crashed'}\n`,
    );
    return stop.trial === undefined ? ExitCode.Crash : ExitCode.GateFailed;
  }
  if (run.interrupted) {
    io.stderr.write(`faultline: interrupted; the reports cover the ${finished} trials that finished\n`);
    return ExitCode.Interrupted;
  }
  if (!exported) return ExitCode.ExportFailed;
  return gatesPassed(written.gates) ? ExitCode.Ok : ExitCode.GateFailed;
}

/** `--otlp-endpoint`: posts the traces file as written (already scrubbed of secrets); false when the collector failed. */
async function exportTraces(endpoint: URL | undefined, file: string | undefined, io: Io): Promise<boolean> {
  if (endpoint === undefined || file === undefined) return true;
  const { postOtlpTraces } = await import('../report/otlp/postOtlpTraces.js');
  const sent = await postOtlpTraces(endpoint, await readFile(file, 'utf8'));
  // A token in the address's query (`?api_key=…`) is a secret too: the address is shown redacted.
  const where = redactText(endpoint.href);
  if (sent.kind === 'sent') {
    io.stdout.write(`traces: sent to ${where} (${sent.status})\n`);
    return true;
  }
  const why =
    sent.kind === 'refused'
      ? `the collector answered ${sent.status}${sent.body.trim() === '' ? '' : `: ${sent.body.trim()}`}`
      : `could not reach the collector: ${sent.message}`;
  io.stderr.write(`faultline: --otlp-endpoint ${where}: ${why}; the traces are in ${shown(file)}\n`);
  return false;
}
