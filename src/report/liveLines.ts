import { formatCost } from '../model/live/prices.js';
import type { RunResult } from '../runner/run.js';

/**
 * What a run against a real model adds to every report, as plain lines: that it stopped at its
 * spending limit (or, any run, that the CLI's own process died running agent code), the trials
 * the provider failed on its own (infra errors, out of pass^k), and what the model answers cost.
 * Empty for a run with none of these.
 */
export function liveLines(run: RunResult): string[] {
  const lines: string[] = [];
  const stop = run.stopped;
  if (stop?.reason === 'max-cost')
    lines.push(
      `stopped at --max-cost ${stop.limit}: ${formatCost(stop.spent)} spent; the figures cover only the trials that finished`,
    );
  if (stop?.reason === 'process-died')
    lines.push(
      `stopped: the CLI's own process died${stop.trial === undefined ? '' : ` in ${stop.trial}`} (${stop.cause}); ` +
        `the figures cover only the trials that finished${stop.trial === undefined ? '' : ', and that one, judged crashed'}`,
    );
  for (const cell of run.cells) {
    const n = cell.metrics.infraErrors ?? 0;
    if (n === 0) continue;
    const first = cell.verdicts.find((g) => g.status === 'infra-error');
    const why = first?.end.kind === 'infra_error' ? `: ${first.end.message}` : '';
    lines.push(
      `infra errors: ${cell.scenario} × ${cell.config}: ${n} ${n === 1 ? 'trial' : 'trials'} the model ` +
        `provider failed on its own (not judged, not in pass^k)${why}`,
    );
    // Which ones: a reader runs one again from its recording (replay --cassette says it was not judged).
    for (const t of cell.trials)
      if (t.status === 'infra-error')
        lines.push(
          `infra error: ${cell.scenario} × ${cell.config} trial ` +
            `${t.trialIndex}${t.recording !== undefined ? `, its recording ${t.recording}` : ''}`,
        );
  }
  const cost = run.cost;
  if (cost !== undefined) {
    const cells = run.cells
      .filter((c) => c.metrics.cost !== undefined)
      .map(
        (c) =>
          `${c.scenario} × ${c.config} ${formatCost(c.metrics.cost!)} (${formatCost(c.metrics.costPerTrial!)} a trial)`,
      );
    lines.push(`cost: ${formatCost(cost)} over the run: ${cells.join(', ')}`);
  }
  return lines;
}
