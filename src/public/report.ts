/**
 * `faultline/report`: a run's results as text, files and data — the console, JSON, JUnit and
 * Markdown renderers, the timeline of one trial, the replay command, the JSON report read back
 * and re-run or merged, and the numbers a report is judged by (gates, confidence intervals).
 * The CLI's reports are built from these same calls.
 *
 * @example
 * import { runMatrix, loadScenarios, rulebookDefault } from 'faultline';
 * import { DEFAULT_GATES, evaluateGates, renderConsoleReport } from 'faultline/report';
 *
 * const run = await runMatrix({ scenarios: await loadScenarios(['read-timeout-retry']), configs: [rulebookDefault], k: 4, seed: 1 });
 * console.log(renderConsoleReport(run, { gates: evaluateGates(run, DEFAULT_GATES) }));
 */
export {
  renderConsoleReport,
  renderJsonReport,
  renderJunitReport,
  renderMarkdownReport,
  writeReports,
  formatTimeline,
  verdictLines,
  replayCommand,
  parseJsonReport,
  runFromJsonReport,
  colorEnabled,
  JsonReportSchema,
  JSON_SCHEMA_VERSION,
} from '../report/index.js';
export { mergeRuns } from '../runner/mergeRuns.js';
export { parseGate, evaluateGates, gatesPassed, DEFAULT_GATES, GATE_GRAMMAR } from '../stats/gates.js';
export {
  passIntervals,
  passIntervalsAt,
  passIntervalCurves,
  proportionInterval,
  DEFAULT_CONFIDENCE,
} from '../stats/intervals.js';

export type {
  JsonReport,
  WallClock,
  ReporterName,
  WriteReportsOptions,
  WrittenReports,
  ConsoleReportOptions,
} from '../report/index.js';
export type { Gate, GateFailure, GateResult, GateScope } from '../stats/gates.js';
export type { Interval, PassIntervals, PassIntervalCurves } from '../stats/intervals.js';
