export type { ChartKind, ChartSpec, HtmlReport, HtmlSection, HtmlTable } from './HtmlReport.js';
export { renderHtmlReport, escapeHtml } from './renderHtmlReport.js';
export { contentionHtmlReport } from './contentionHtml.js';
export { runComparisonHtmlReport } from './runComparisonHtml.js';
export { chartJsSource } from './chartJsSource.js';
export { writeCompareHtml } from './writeCompareHtml.js';
