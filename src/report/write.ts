import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { evaluateGates, type Gate, type GateResult } from '../stats/gates.js';
import type { RunResult } from '../runner/run.js';
import { renderConsoleReport } from './console.js';
import { buildJsonReport, renderJsonReport, type WallClock } from './json.js';
import { renderJunitReport } from './junit.js';
import { renderMarkdownReport } from './markdown.js';
import { trackTempFile, untrackTempFile } from './tempFiles.js';

export interface AtomicWriteHooks {
  /** Called once the temp file is complete and synced, before the rename (tests use it to crash there). */
  readonly beforeRename?: (tempPath: string) => void | Promise<void>;
}

/**
 * Writes `contents` to `path` so that a reader sees the old file or the whole new one, never
 * a part: a temp file in the same folder (same file system, so the rename is atomic), fsync, rename.
 */
export async function writeReportAtomic(
  path: string,
  contents: string | Uint8Array,
  hooks: AtomicWriteHooks = {},
): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  trackTempFile(temp);
  try {
    const file = await open(temp, 'wx');
    try {
      await file.writeFile(contents);
      await file.sync();
    } finally {
      await file.close();
    }
    await hooks.beforeRename?.(temp);
    await rename(temp, path);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  } finally {
    untrackTempFile(temp);
  }
  await syncFolder(dir);
}

// The rename itself lives in the folder's entry; syncing it makes the new file survive a power cut.
// Some platforms (Windows) cannot open a folder for syncing: the file is already whole, so that is only less durable.
async function syncFolder(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // best effort, see above
  }
}

/** Everything a reporter may use. */
export interface ReportContext {
  readonly run: RunResult;
  readonly gates: readonly GateResult[];
  readonly wallClock: WallClock;
  readonly color: boolean;
  readonly history: 'failing' | 'all';
  /** `--quiet`: the console summary keeps the failures, the gates and one line for what passed. */
  readonly quiet: boolean;
}

export interface Reporter {
  /** The file it writes in the output folder; none for the console. */
  readonly file?: string;
  /** A reporter few runs ask for may load its module on first use (report.html). */
  render(ctx: ReportContext): string | Promise<string>;
}

/** Reporters by name, as `--reporter` takes them. */
export const REPORTERS = {
  console: { render: (ctx) => renderConsoleReport(ctx.run, { gates: ctx.gates, color: ctx.color, quiet: ctx.quiet }) },
  // dot and list differ from console in what the CLI prints while the run goes (a mark per trial, a line per cell);
  // the summary is the same.
  dot: { render: (ctx) => renderConsoleReport(ctx.run, { gates: ctx.gates, color: ctx.color, quiet: ctx.quiet }) },
  list: { render: (ctx) => renderConsoleReport(ctx.run, { gates: ctx.gates, color: ctx.color, quiet: ctx.quiet }) },
  json: {
    file: 'faultline.json',
    render: (ctx) => renderJsonReport(ctx.run, { gates: ctx.gates, wallClock: ctx.wallClock, history: ctx.history }),
  },
  junit: { file: 'junit.xml', render: (ctx) => renderJunitReport(ctx.run, { gates: ctx.gates }) },
  markdown: { file: 'summary.md', render: (ctx) => renderMarkdownReport(ctx.run, { gates: ctx.gates }) },
  // Not among the defaults: `run --html` or `--reporter html` asks for it.
  // Loaded on first use: the page's modules (its script, chart and timeline) are a plain run's to skip.
  html: {
    file: 'report.html',
    render: async (ctx) =>
      (await import('./html/renderRunHtml.js')).renderRunHtml(
        buildJsonReport(ctx.run, { gates: ctx.gates, wallClock: ctx.wallClock, history: ctx.history }),
      ),
  },
  // Not among the defaults: `--reporter otlp` (or `--otlp-endpoint`). Loaded on first use, as html: the OpenTelemetry
  // packages are a plain run's to skip.
  otlp: {
    file: 'otel-traces.json',
    render: async (ctx) => (await import('./otlp/renderOtlpTraces.js')).renderOtlpTraces(ctx.run),
  },
} as const satisfies Record<string, Reporter>;
export type ReporterName = keyof typeof REPORTERS;
export const REPORTER_NAMES = Object.keys(REPORTERS) as ReporterName[];

/** The reporters that print to the terminal rather than write a file. */
export const CONSOLE_REPORTERS = ['console', 'dot', 'list'] as const satisfies readonly ReporterName[];
export const isConsoleReporter = (name: ReporterName): boolean =>
  (CONSOLE_REPORTERS as readonly ReporterName[]).includes(name);

export interface WriteReportsOptions {
  readonly outDir: string;
  readonly reporters: readonly ReporterName[];
  readonly wallClock: WallClock;
  readonly gates: readonly Gate[];
  readonly color?: boolean;
  /** Which trials the JSON report carries the full history of (default: the failing ones). */
  readonly history?: 'failing' | 'all';
  readonly quiet?: boolean;
}

export interface WrittenReports {
  /** The console summary, when `console` was asked for; printing it is the caller's job. */
  readonly console?: string;
  /** Paths of the files written, by reporter. */
  readonly paths: Partial<Record<ReporterName, string>>;
  readonly gates: readonly GateResult[];
}

const contextOf = (run: RunResult, options: WriteReportsOptions): ReportContext => ({
  run,
  gates: evaluateGates(run, options.gates),
  wallClock: options.wallClock,
  color: options.color ?? false,
  history: options.history ?? 'failing',
  quiet: options.quiet ?? false,
});

/** The reports as `writeReports` writes them, rendered now without waiting: for a thread that cannot wait. */
export interface RenderedReports {
  readonly console?: string;
  readonly files: readonly { readonly path: string; readonly text: string }[];
  /** Reporters that render only asynchronously (report.html and otel-traces.json load their modules): not rendered. */
  readonly skipped: readonly ReporterName[];
  readonly gates: readonly GateResult[];
}

/** Renders every reporter asked for synchronously (`--workers 0`'s watchdog, in a thread an agent holds); writes nothing. */
export function renderReportsNow(run: RunResult, options: WriteReportsOptions): RenderedReports {
  const ctx = contextOf(run, options);
  const files: { path: string; text: string }[] = [];
  const skipped: ReporterName[] = [];
  let consoleText: string | undefined;
  for (const name of new Set(options.reporters)) {
    const reporter: Reporter = REPORTERS[name];
    if (reporter.file === undefined && consoleText !== undefined) continue;
    const text = name === 'html' || name === 'otlp' ? undefined : reporter.render(ctx);
    if (typeof text !== 'string') {
      skipped.push(name);
      continue;
    }
    if (reporter.file === undefined) consoleText = text;
    else files.push({ path: join(options.outDir, reporter.file), text });
  }
  return { ...(consoleText !== undefined && { console: consoleText }), files, skipped, gates: ctx.gates };
}

/** Evaluates the gates, renders every reporter asked for and writes the files atomically into `outDir`. */
export async function writeReports(run: RunResult, options: WriteReportsOptions): Promise<WrittenReports> {
  const ctx = contextOf(run, options);
  const paths: Partial<Record<ReporterName, string>> = {};
  let consoleText: string | undefined;
  for (const name of new Set(options.reporters)) {
    const reporter: Reporter = REPORTERS[name];
    // console, dot and list print the same summary: once, however many of them were asked for.
    if (reporter.file === undefined && consoleText !== undefined) continue;
    const text = await reporter.render(ctx);
    if (reporter.file === undefined) {
      consoleText = text;
      continue;
    }
    const path = join(options.outDir, reporter.file);
    await writeReportAtomic(path, text);
    paths[name] = path;
  }
  return { ...(consoleText !== undefined ? { console: consoleText } : {}), paths, gates: ctx.gates };
}
