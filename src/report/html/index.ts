export type { ChartKind, ChartSpec, HtmlReport, HtmlSection, HtmlTable } from './HtmlReport.js';
export { renderHtmlReport } from './renderHtmlReport.js';
export { escapeHtml } from './htmlPage.js';
export { runComparisonHtmlReport } from './runComparisonHtml.js';
export { chartJsSource } from './chartJsSource.js';
export { writeCompareHtml } from './writeCompareHtml.js';
export { renderRunHtml } from './renderRunHtml.js';
export {
  runHtmlModel,
  evidenceEvents,
  LANES,
  type RunHtmlModel,
  type CellView,
  type TrialView,
  type EventView,
  type CheckView,
  type Lane,
} from './runHtmlModel.js';
