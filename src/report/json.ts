// The JSON report, in one import: its schema, the writer, and the readers back into a run.
export {
  JSON_SCHEMA_VERSION,
  JsonReportSchema,
  WallClockSchema,
  type JsonReport,
  type WallClock,
} from './jsonReportSchema.js';
export { buildJsonReport, renderJsonReport, type JsonReportOptions } from './renderJsonReport.js';
export { runFromJsonReport } from './runFromJsonReport.js';
export { parseJsonReport } from './parseJsonReport.js';
