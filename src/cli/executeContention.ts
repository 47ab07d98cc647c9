import { randomInt } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { RealClock, wallMs } from '../core/clock/RealClock.js';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { compareContention, type ContentionComparison } from '../runner/contention/compareContention.js';
import { loadContentionConfigs, loadContentionScenarios } from '../runner/contention/library.js';
import type { RunResult } from '../runner/run.js';
import { colorEnabled } from '../report/console.js';
import { renderContentionConsole } from '../report/contention/contentionConsole.js';
import { renderContentionJunit } from '../report/contention/contentionJunit.js';
import { renderContentionMarkdown } from '../report/contention/contentionMarkdown.js';
import { contentionHtmlReport } from '../report/html/contentionHtml.js';
import { renderHtmlReport } from '../report/html/renderHtmlReport.js';
import { renderJsonReport } from '../report/json.js';
import { writeReportAtomic, type ReporterName } from '../report/write.js';
import { ExitCode } from './exitCodes.js';
import { listenForInterrupt } from './interrupt.js';
import type { Io } from './io.js';
import { loadAll } from './loadAll.js';
import { assertAppendable, assertWritableFolder } from './outputPaths.js';
import type { SeedOption } from './options.js';

/** `faultline compare --contention`, flags parsed. */
export interface ContentionRequest {
  readonly scenarios: readonly string[];
  readonly configs: readonly string[];
  /** Trials per scenario × configuration. */
  readonly trials: number;
  readonly seed: SeedOption;
  /** Overrides every scenario's number of agents. */
  readonly agents?: number;
  readonly reporters?: readonly ReporterName[];
  /** Write `compare.html` (the default unless `--reporter` limits the reports). */
  readonly html: boolean;
  readonly outDir: string;
  readonly grep?: RegExp;
}

const RANDOM_SEED_MAX = 2 ** 31 - 1;
/** JUnit gets a case per scenario × configuration (no gates apply, so a case that ran passes; one never reached is skipped). */
const CONTENTION_REPORTERS: readonly ReporterName[] = ['console', 'json', 'junit', 'markdown'];

const shown = (path: string): string => {
  const rel = relative(process.cwd(), path);
  return rel === '' || rel.startsWith('..') ? path : rel;
};

/**
 * Runs every configuration under every contention scenario and writes the comparison: the
 * table on stdout, `faultline.json` (its `contention` section), `summary.md` and `compare.html`.
 * No gates apply: it exits 0 unless stopped by a signal (130, 143, 129) or given bad input (2).
 */
export async function executeContention(request: ContentionRequest, io: Io): Promise<ExitCode> {
  const seed = request.seed === 'random' ? randomInt(0, RANDOM_SEED_MAX) : request.seed;
  if (request.seed === 'random') io.stderr.write(`faultline: random seed ${seed} (rerun with --seed ${seed})\n`);
  const reporters = (request.reporters && request.reporters.length > 0 ? request.reporters : CONTENTION_REPORTERS).filter((r) => CONTENTION_REPORTERS.includes(r));
  const interrupt = listenForInterrupt(io);
  try {
    let scenarios = await loadAll(request.scenarios, loadContentionScenarios, 'contention scenario');
    if (request.grep !== undefined) {
      const grep = request.grep;
      const chosen = scenarios.filter((s) => grep.test(s.name));
      if (chosen.length === 0) throw new FaultlineError(FaultlineErrorCode.Usage, `--grep ${grep.source} matches no contention scenario (scenarios: ${scenarios.map((s) => s.name).join(', ')})`);
      scenarios = chosen;
    }
    if (request.agents !== undefined) scenarios = scenarios.map((s) => ({ ...s, agents: request.agents! }));
    const configs = await loadAll(request.configs, loadContentionConfigs, 'configuration');
    if (request.html || reporters.some((r) => r !== 'console')) await assertWritableFolder(request.outDir, '--out');
    const stepSummary = io.env['GITHUB_STEP_SUMMARY'];
    if (stepSummary) await assertAppendable(stepSummary, 'GITHUB_STEP_SUMMARY');

    const clock = new RealClock();
    const startedAt = new Date(clock.now()).toISOString();
    const started = wallMs();
    const comparisons: ContentionComparison[] = [];
    for (const scenario of scenarios) {
      if (interrupt.signal.aborted) break;
      let last = wallMs();
      comparisons.push(
        await compareContention({
          scenario,
          configs,
          seed,
          trials: request.trials,
          signal: interrupt.signal,
          onTrial: (t, done, total) => {
            const now = wallMs();
            io.stderr.write(`  ${scenario.name} × ${t.config} trial ${t.trialIndex}: ${scenario.agents} agents, ${t.events} events, ${Math.round(now - last)} ms (${done}/${total})\n`);
            last = now;
          },
        }),
      );
    }
    const wallClock = { startedAt, finishedAt: new Date(clock.now()).toISOString(), durationMs: Math.round(wallMs() - started) };

    if (reporters.includes('console')) io.stdout.write(renderContentionConsole(comparisons, { color: colorEnabled(io.stdout, io.env) }));
    const interrupted = interrupt.signal.aborted;
    const markdown = renderContentionMarkdown(comparisons, { interrupted });
    const files: string[] = [];
    const write = async (file: string, text: string): Promise<void> => {
      const path = join(request.outDir, file);
      await writeReportAtomic(path, text);
      files.push(shown(path));
    };
    if (reporters.includes('json')) await write('faultline.json', renderJsonReport(emptyRun(seed, request.trials, interrupted), { gates: [], wallClock, contention: comparisons }));
    if (reporters.includes('junit')) {
      const junit = { scenarios: scenarios.map((s) => s.name), configs: configs.map((c) => c.name), seed, trials: request.trials, interrupted };
      await write('junit.xml', renderContentionJunit(comparisons, junit));
    }
    if (reporters.includes('markdown')) await write('summary.md', markdown);
    if (request.html) await write('compare.html', renderHtmlReport(contentionHtmlReport(comparisons)));
    const summaryFile = io.env['GITHUB_STEP_SUMMARY'];
    if (summaryFile) await appendFile(summaryFile, `${markdown}\n`);
    if (files.length > 0) io.stdout.write(`\nreports: ${files.join(', ')}\n`);
    if (interrupted) {
      io.stderr.write('faultline: interrupted; the reports cover the configurations that finished\n');
      return interrupt.exitCode();
    }
    return ExitCode.Ok;
  } finally {
    interrupt.dispose();
  }
}

/** The JSON report's run section for a comparison that ran no library trials. */
const emptyRun = (seed: number, k: number, interrupted: boolean): RunResult => ({ seed, k, scenarios: [], configs: [], cells: [], byConfig: [], interrupted, keepFailures: null });
