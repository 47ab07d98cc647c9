export { renderConsoleReport, colorEnabled, type ConsoleReportOptions } from './console.js';
export {
  failingCells,
  failedTrialLines,
  notPassed,
  verdictLine,
  verdictLines,
  type FailedTrial,
  type FailingCell,
} from './failures.js';
export { compactJson, formatRate, formatRatio, formatSeconds, formatValue } from './format.js';
export {
  JSON_SCHEMA_VERSION,
  JsonReportSchema,
  WallClockSchema,
  buildJsonReport,
  parseJsonReport,
  renderJsonReport,
  runFromJsonReport,
  type JsonReport,
  type JsonReportOptions,
  type WallClock,
} from './json.js';
export { renderJunitReport, type JunitReportOptions } from './junit.js';
export { escapeMarkdown, renderMarkdownReport, type MarkdownReportOptions } from './markdown.js';
export { replayCommand, shellQuote, type ReplayTarget } from '../runner/replay.js';
export { RULES_DOC, rulesCited, rulesFooter } from './rulesLink.js';
export { formatOffset, formatTimeline } from './timeline.js';
export {
  REPORTERS,
  REPORTER_NAMES,
  writeReportAtomic,
  writeReports,
  type AtomicWriteHooks,
  type ReportContext,
  type Reporter,
  type ReporterName,
  type WriteReportsOptions,
  type WrittenReports,
} from './write.js';
export { escapeXmlAttr, escapeXmlText } from './xml.js';
