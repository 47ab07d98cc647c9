import type { SvgLineChart } from './svgLineChart.js';

/** A chart as data: the page's script turns it into a Chart.js chart. */
export type ChartSpec =
  /** One bar per configuration; a flagged bar is drawn in red. */
  | {
      readonly kind: 'bar';
      readonly id: string;
      readonly title: string;
      readonly unit: string;
      readonly labels: readonly string[];
      readonly values: readonly number[];
      readonly flagged: readonly boolean[];
    }
  /** One line per configuration over a numeric x axis. */
  | {
      readonly kind: 'line';
      readonly id: string;
      readonly title: string;
      readonly x: string;
      readonly y: string;
      readonly series: readonly {
        readonly label: string;
        readonly points: readonly (readonly [number, number])[];
        /** A confidence band around the line: `[x, lower, upper]`, drawn as a shaded area. */
        readonly band?: readonly (readonly [number, number, number])[];
      }[];
    };
export type ChartKind = ChartSpec['kind'];

export interface HtmlTable {
  readonly header: readonly string[];
  readonly rows: readonly { readonly cells: readonly string[]; readonly flagged: boolean }[];
  readonly legend?: string;
}

/** One comparison: a table, what to point out, and its charts. */
export interface HtmlSection {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly table: HtmlTable;
  readonly flags: readonly string[];
  readonly charts: readonly ChartSpec[];
  /** Charts drawn as inline SVG on the server (no script needed), under the others. */
  readonly svgCharts?: readonly SvgLineChart[];
}

/** The whole page, as data (it is embedded as JSON, so a reader can take the figures from the file too). */
export interface HtmlReport {
  readonly title: string;
  readonly subtitle: string;
  readonly sections: readonly HtmlSection[];
}
