import { configMetrics } from './configMetrics.js';
import { runCost } from './runCost.js';
import type { RunResult } from './runResult.js';

/**
 * The figures of a whole run, from its cells: each configuration's totals and intervals, what
 * the run cost. The runner, a merge and a report read back all finish a run through here.
 */
export function runFigures(run: Pick<RunResult, 'configs' | 'cells'>): Pick<RunResult, 'byConfig' | 'cost'> {
  const cost = runCost(run);
  return {
    byConfig: run.configs
      .map((name) =>
        configMetrics(
          name,
          run.cells.filter((c) => c.config === name),
        ),
      )
      .filter((m) => m.scenarios > 0),
    ...(cost !== undefined && { cost }),
  };
}
