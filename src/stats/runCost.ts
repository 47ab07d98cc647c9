import type { RunResult } from './runResult.js';

/** What a run's model answers cost, over its cells; undefined when no cell was priced. */
export function runCost(run: Pick<RunResult, 'cells'>): number | undefined {
  const priced = run.cells.filter((c) => c.metrics.cost !== undefined);
  return priced.length === 0 ? undefined : priced.reduce((a, c) => a + c.metrics.cost!, 0);
}
