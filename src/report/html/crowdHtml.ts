import type { CrowdMetrics } from '../../stats/CrowdTally.js';
import type { RunResult } from '../../runner/run.js';
import { crowdHeader, CROWD_LEGEND, crowdRows, type CrowdRow } from '../crowdRows.js';
import { columnWord } from '../columnWord.js';
import type { ChartSpec, HtmlSection } from './HtmlReport.js';
import { loadSeries, type LoadSeries } from '../loadSeries.js';
import type { SvgLineChart } from './svgLineChart.js';

/** The bars drawn per configuration: what, in which unit, from which figure. */
const BARS: readonly {
  readonly key: string;
  readonly title: string;
  readonly unit: string;
  readonly value: (r: CrowdRow) => number;
}[] = [
  {
    key: 'work',
    title: 'Work: deliveries to the services',
    unit: 'deliveries',
    value: (r) => r.cell.metrics.deliveries,
  },
  {
    key: 'amplification',
    title: 'Amplification: sends per logical operation',
    unit: 'sends / operation',
    value: (r) => r.cell.metrics.amplification,
  },
  {
    key: 'max-per-op',
    title: 'Most sends for one logical operation',
    unit: 'sends',
    value: (r) => r.crowd.maxSendsPerOperation,
  },
  { key: 'success', title: 'Success rate (agents)', unit: 'rate', value: (r) => r.crowd.successRate },
  {
    key: 'p50',
    title: 'Completion time per agent, p50 (virtual)',
    unit: 's',
    value: (r) => r.crowd.completionMs.p50 / 1000,
  },
  {
    key: 'p95',
    title: 'Completion time per agent, p95 (virtual)',
    unit: 's',
    value: (r) => r.crowd.completionMs.p95 / 1000,
  },
  {
    key: 'max',
    title: 'Completion time per agent, max (virtual)',
    unit: 's',
    value: (r) => r.crowd.completionMs.max / 1000,
  },
  {
    key: 'throttled',
    title: 'Time spent throttled (429/503), summed',
    unit: 's',
    value: (r) => r.crowd.throttled.ms / 1000,
  },
];

/** Bucket widths a chart reads easily. */
const NICE_MS = [
  100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000,
];

/** The smallest nice bucket that shows `durationMs` in at most `maxPoints` points. */
export function bucketFor(durationMs: number, maxPoints = 200): number {
  return NICE_MS.find((ms) => durationMs / ms <= maxPoints) ?? NICE_MS.at(-1)!;
}

/** Deliveries per virtual second per trial, in buckets of `bucketMs` (a multiple of the load's bins), as `[s, rate]` points. */
export function loadPoints(crowd: CrowdMetrics, trials: number, bucketMs: number): [number, number][] {
  const per = Math.max(1, Math.round(bucketMs / crowd.loadBinMs));
  const out: [number, number][] = [];
  for (let i = 0; i < crowd.load.length; i += per) {
    let n = 0;
    for (let j = i; j < Math.min(i + per, crowd.load.length); j++) n += crowd.load[j]!;
    out.push([(i * crowd.loadBinMs) / 1000, (n * 1000) / bucketMs / Math.max(1, trials)]);
  }
  return out;
}

/** A section per scenario that ran many agents: its configurations side by side, and the load over time. */
export function crowdSections(run: RunResult): HtmlSection[] {
  const rows = crowdRows(run);
  const word = columnWord(run.cells);
  const scenarios = [...new Set(rows.map((r) => r.cell.scenario))];
  return scenarios.map((scenario, index) => {
    const mine = rows.filter((r) => r.cell.scenario === scenario);
    const id = `crowd${index}-${scenario}`;
    const labels = mine.map((r) => r.cell.config);
    const amplified = mine.map((r) => r.amplified);
    const bucketMs = bucketFor(Math.max(1, ...mine.map((r) => r.crowd.load.length * r.crowd.loadBinMs)));
    const charts: ChartSpec[] = [
      ...BARS.map((b): ChartSpec => ({
        kind: 'bar',
        id: `${id}-${b.key}`,
        title: b.title,
        unit: b.unit,
        labels,
        values: mine.map(b.value),
        // Red marks the configurations the amplification checker failed.
        flagged: b.key === 'amplification' || b.key === 'max-per-op' ? amplified : labels.map(() => false),
      })),
      {
        kind: 'line',
        id: `${id}-load`,
        title: `Load over time: deliveries per virtual second, per trial (${bucketMs / 1000} s buckets)`,
        x: 'virtual time (s)',
        y: 'deliveries / s',
        series: mine.map((r) => ({
          label: r.cell.config,
          points: loadPoints(r.crowd, r.cell.metrics.trials, bucketMs),
        })),
      },
    ];
    const series = loadSeries(run).filter((s) => s.scenario === scenario);
    const over = (pick: (s: LoadSeries) => readonly number[]) =>
      series.map((s) => ({
        label: s.config,
        points: pick(s).map((v, i): [number, number] => [(i * s.stepMs) / 1000, v]),
      }));
    const svgCharts: SvgLineChart[] = [
      {
        id: `${id}-goodput`,
        title: 'Goodput: calls that succeeded per virtual second, per trial',
        x: 'virtual time (s)',
        y: 'successes / s',
        series: over((s) => s.goodput),
      },
      {
        id: `${id}-offered`,
        title: 'Offered load: requests per virtual second (retries included), per trial',
        x: 'virtual time (s)',
        y: 'requests / s',
        series: over((s) => s.offered),
      },
    ];
    const agents = mine[0]!.crowd.agents / Math.max(1, mine[0]!.cell.metrics.trials);
    return {
      id,
      title: `Crowd: ${scenario}`,
      description:
        `${agents} agents per trial, ${run.k} trial(s) per ${word}, seed ${run.seed}. Every ` +
        `figure is on virtual time; the same seed gives the same report.`,
      table: {
        header: crowdHeader(word).slice(1),
        rows: mine.map((r) => ({ cells: r.cells.slice(1), flagged: r.amplified })),
        legend: CROWD_LEGEND,
      },
      flags: mine
        .filter((r) => r.amplified)
        .map(
          (r) =>
            `${r.cell.config}: the amplification checker failed: up to ${r.crowd.maxSendsPerOperation} sends ` +
            `for one logical operation; retry at one layer only (R10)`,
        ),
      charts,
      svgCharts,
    };
  });
}
