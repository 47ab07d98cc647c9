import type { Cell } from '../stats/CellTally.js';
import type { CrowdMetrics } from '../stats/CrowdTally.js';
import type { RunResult } from '../runner/run.js';
import type { ColumnWord } from './columnWord.js';
import { formatRate, formatRatio, formatSeconds } from './format.js';

/** The crowd table's columns, the same in the console, Markdown and HTML; the second names what the run's columns are. */
export const crowdHeader = (word: ColumnWord): string[] => [
  'scenario',
  word,
  'agents',
  'success',
  'work',
  'amp',
  'max/op',
  'p50',
  'p95',
  'max',
  'throttled',
];

/** What the columns mean, once, under the table. */
export const CROWD_LEGEND =
  'agents: agent runs (agents × trials); success: agents whose own end was accepted; work: deliveries ' +
  'to the services (refusals included); amp: sends per logical operation; ' +
  'max/op: the most for one operation; p50/p95/max: virtual time per agent, from its start to its end; ' +
  'throttled: virtual time from a 429/503 to the next send, summed over calls.';

/** A cell of a many-agent scenario, with its crowd figures. */
export interface CrowdRow {
  readonly cell: Cell;
  readonly crowd: CrowdMetrics;
  readonly cells: readonly string[];
  /** The amplification checker failed in the cell: its row is marked. */
  readonly amplified: boolean;
}

/** One row per cell that ran many agents, in the run's order; none when no scenario did. */
export function crowdRows(run: RunResult): CrowdRow[] {
  return run.cells.flatMap((cell) => {
    const crowd = cell.metrics.crowd;
    if (!crowd) return [];
    const m = cell.metrics;
    const cells = [
      cell.scenario,
      cell.config,
      String(crowd.agents),
      formatRate(crowd.successRate),
      String(m.deliveries),
      formatRatio(m.amplification),
      String(crowd.maxSendsPerOperation),
      formatSeconds(crowd.completionMs.p50),
      formatSeconds(crowd.completionMs.p95),
      formatSeconds(crowd.completionMs.max),
      formatSeconds(crowd.throttled.ms),
    ];
    return [{ cell, crowd, cells, amplified: (m.checkFailures['amplification'] ?? 0) > 0 }];
  });
}
