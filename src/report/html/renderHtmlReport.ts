import { chartJsSource } from './chartJsSource.js';
import { CLIENT_SCRIPT } from './clientScript.js';
import type { HtmlReport, HtmlSection } from './HtmlReport.js';
import { escapeHtml, htmlPage } from './htmlPage.js';
import { renderSvgLineChart } from './svgLineChart.js';

const STYLE = `
body { font-family: system-ui, sans-serif; margin: 24px; color: #222; background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 32px 0 4px; }
.sub, .desc, .legend { color: #555; font-size: 13px; }
table { border-collapse: collapse; font-size: 12px; margin: 12px 0; max-width: 100%; }
th, td { padding: 3px 8px; border-bottom: 1px solid #ddd; text-align: right; white-space: nowrap; }
th:first-child, td:first-child, th:nth-child(2), td:nth-child(2) { text-align: left; }
tr.flag td { color: #b00; font-weight: 600; }
td.long { white-space: normal; overflow-wrap: anywhere; text-align: left; min-width: 16em; }
ul.flags { color: #b00; font-size: 13px; padding-left: 20px; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(360px, 1fr)); gap: 16px; }
.chart { position: relative; height: 260px; border: 1px solid #eee; padding: 6px; }
.chart.wide { grid-column: 1 / -1; height: 320px; }
.svg-charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 16px; margin-top: 16px; }
.svg-chart { width: 100%; height: auto; border: 1px solid #eee; font-family: system-ui, sans-serif; }
`;

/** Characters past which a cell's text wraps instead of widening its column. */
const LONG_CELL = 40;

function section(s: HtmlSection): string {
  const head = s.table.header.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  // Figures stay on one line; a long text (the scenarios a configuration fails) wraps, so the table fits the page.
  const cell = (c: string): string => `<td${c.length > LONG_CELL ? ' class="long"' : ''}>${escapeHtml(c)}</td>`;
  const rows = s.table.rows
    .map((r) => `<tr${r.flagged ? ' class="flag"' : ''}>${r.cells.map(cell).join('')}</tr>`)
    .join('\n');
  const flags =
    s.flags.length === 0 ? '' : `<ul class="flags">${s.flags.map((f) => `<li>⚠ ${escapeHtml(f)}</li>`).join('')}</ul>`;
  const charts = s.charts
    .map(
      (c) =>
        `<div class="chart${c.kind === 'line' ? ' wide' : ''}"><canvas id="${escapeHtml(c.id)}" ` +
        `role="img" aria-label="${escapeHtml(c.title)}"></canvas></div>`,
    )
    .join('\n');
  return [
    `<section id="${escapeHtml(s.id)}">`,
    `<h2>${escapeHtml(s.title)}</h2>`,
    s.description === '' ? '' : `<p class="desc">${escapeHtml(s.description)}</p>`,
    `<table><thead><tr>${head}</tr></thead><tbody>\n${rows}\n</tbody></table>`,
    s.table.legend === undefined ? '' : `<p class="legend">${escapeHtml(s.table.legend)}</p>`,
    flags,
    `<div class="charts">\n${charts}\n</div>`,
    s.svgCharts === undefined || s.svgCharts.length === 0
      ? ''
      : `<div class="svg-charts">\n${s.svgCharts.map(renderSvgLineChart).join('\n')}\n</div>`,
    '</section>',
  ]
    .filter((l) => l !== '')
    .join('\n');
}

/**
 * One self-contained HTML file: the report as embedded JSON, Chart.js inlined, and a small
 * script drawing every chart. A content security policy forbids any network request, so
 * what opens from a CI artifact is exactly what was written.
 */
export function renderHtmlReport(report: HtmlReport): string {
  return htmlPage({
    title: report.title,
    style: STYLE,
    body: `<p class="sub">${escapeHtml(report.subtitle)}</p>\n${report.sections.map(section).join('\n')}`,
    data: report,
    scripts: [chartJsSource(), CLIENT_SCRIPT],
  });
}
