import type { ContentionComparison } from '../../runner/contention/compareContention.js';
import type { ContentionMetrics } from '../../runner/contention/contentionMetrics.js';
import { CONTENTION_LEGEND, contentionFlags, contentionHeader, contentionRow, contentionTitle } from '../contention/contentionRows.js';
import type { ChartSpec, HtmlReport, HtmlSection } from './HtmlReport.js';

/** The bars drawn per configuration: what, in which unit, from which figure. */
const BARS: readonly { readonly key: string; readonly title: string; readonly unit: string; readonly value: (m: ContentionMetrics) => number }[] = [
  { key: 'work', title: 'Work: deliveries to the service', unit: 'deliveries', value: (m) => m.deliveries },
  { key: 'amplification', title: 'Amplification: deliveries per logical call', unit: 'deliveries / call', value: (m) => m.amplification },
  { key: 'max-per-call', title: 'Most deliveries for one logical call', unit: 'deliveries', value: (m) => m.maxDeliveriesPerCall },
  { key: 'p50', title: 'Completion time p50 (virtual)', unit: 's', value: (m) => m.completionMs.p50 / 1000 },
  { key: 'p95', title: 'Completion time p95 (virtual)', unit: 's', value: (m) => m.completionMs.p95 / 1000 },
  { key: 'max', title: 'Completion time max (virtual)', unit: 's', value: (m) => m.completionMs.max / 1000 },
  { key: 'success', title: 'Success rate (agents)', unit: 'rate', value: (m) => m.successRate },
  { key: 'duplicates', title: 'Duplicate effects', unit: 'effects', value: (m) => m.duplicates },
  { key: 'budget', title: 'Budget violations', unit: 'violations', value: (m) => m.budgetViolations },
  { key: 'throttled', title: 'Time spent throttled (429/503), summed', unit: 's', value: (m) => m.throttled.ms / 1000 },
];

function sectionOf(c: ContentionComparison, index: number): HtmlSection {
  const id = `s${index}-${c.scenario.name}`;
  const labels = c.results.map((r) => r.config);
  const amplified = c.results.map((r) => r.metrics.flags.some((f) => f.kind === 'amplification'));
  const bars: ChartSpec[] = BARS.map((b) => ({
    kind: 'bar',
    id: `${id}-${b.key}`,
    title: b.title,
    unit: b.unit,
    labels,
    values: c.results.map((r) => b.value(r.metrics)),
    // Red marks the configurations the report flags for amplification.
    flagged: b.key === 'amplification' || b.key === 'max-per-call' ? amplified : labels.map(() => false),
  }));
  const load: ChartSpec = {
    kind: 'line',
    id: `${id}-load`,
    title: `Load over time: deliveries per virtual second (${c.loadBucketMs / 1000} s buckets)`,
    x: 'virtual time (s)',
    y: 'deliveries / s',
    series: c.results.map((r) => ({ label: r.config, points: r.load.map((v, i) => [(i * c.loadBucketMs) / 1000, v] as const) })),
  };
  const passK: ChartSpec = {
    kind: 'line',
    id: `${id}-passk`,
    title: 'pass^k against k (agents as runs of one task)',
    x: 'k',
    y: 'pass^k',
    series: c.results.map((r) => ({ label: r.config, points: r.metrics.passHat.map((v, i) => [i + 1, v] as const) })),
  };
  return {
    id,
    title: c.scenario.title || c.scenario.name,
    description: `${contentionTitle(c)}. ${c.scenario.description}`.trim(),
    table: {
      header: contentionHeader(c),
      rows: c.results.map((r, i) => ({ cells: contentionRow(r), flagged: amplified[i] ?? false })),
      legend: CONTENTION_LEGEND,
    },
    flags: contentionFlags(c),
    charts: [...bars, load, passK],
  };
}

/** `compare.html` for `faultline compare --contention`: a section per scenario. */
export function contentionHtmlReport(comparisons: readonly ContentionComparison[]): HtmlReport {
  const seeds = [...new Set(comparisons.map((c) => c.seed))].join(', ');
  return {
    title: 'faultline: retry configurations under contention',
    subtitle: `${comparisons.length} scenario(s), seed ${seeds}. Every figure is on virtual time; the same seed gives the same report.`,
    sections: comparisons.map(sectionOf),
  };
}
