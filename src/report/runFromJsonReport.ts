import type { TrialEnd } from '../checks/record.js';
import { withCellFigures } from '../stats/metrics.js';
import { finishRun, type Cell, type RunResult } from '../runner/run.js';
import type { RunStop } from '../stats/runResult.js';
import type { TrialSummary } from '../runner/trial.js';
import type { JsonReport } from './jsonReportSchema.js';

// zod types the optional agent as possibly undefined; a parsed report never holds one.
const refsOf = (r: JsonReport['cells'][number]['refs']): Cell['refs'] => ({
  scenario: r.scenario,
  config: r.config,
  ...(r.agent !== undefined && { agent: r.agent }),
  ...(r.behaviour !== undefined && { behaviour: r.behaviour }),
});

/**
 * The run a report describes, as reporters and gates take it: what `faultline merge` combines.
 * Kept trials come back with their history when the report carried it (failing trials always).
 * Its figures (intervals, configuration totals, cost) are computed again by the engine from the counts.
 */
export function runFromJsonReport(report: JsonReport): RunResult {
  // zod types an optional key as possibly undefined; a parsed report never holds one.
  const endOf = (end: JsonReport['cells'][number]['verdicts'][number]['end']): TrialEnd => end as TrialEnd;
  const cells = report.cells.map((c): Cell => ({
    scenario: c.scenario,
    config: c.config,
    refs: refsOf(c.refs),
    ...(c.clock === 'real' && { clock: 'real' as const }),
    trials: c.trials.map((t): TrialSummary => {
      const { crowd, recovery, ...rest } = t.stats;
      const { cached, ...tokens } = rest.tokens;
      // Replaced in place, so the keys keep the order the writer gave them (the round trip is byte-exact).
      const stats = { ...rest, tokens: { ...tokens, ...(cached !== undefined && { cached }) } };
      const common = {
        scenario: c.scenario,
        config: c.config,
        trialIndex: t.index,
        seed: t.seed,
        history: t.history ?? [],
        end: endOf(t.end),
        runSeed: report.run.seed,
        refs: refsOf(c.refs),
        checks: t.checks,
        stats: { ...stats, ...(crowd && { crowd }), ...(recovery && { recovery }) },
      };
      const withRecording = {
        ...common,
        ...(t.recording !== undefined && { recording: t.recording }),
        ...(t.model !== undefined && { model: t.model }),
        ...(t.cost !== undefined && { cost: t.cost }),
        ...(t.exchanges && { exchanges: t.exchanges }),
      };
      if (t.status === 'infra-error')
        return {
          ...withRecording,
          status: 'infra-error',
          message: t.end.kind === 'infra_error' ? t.end.message : 'the model provider failed',
        };
      return t.status === 'failed'
        ? { ...withRecording, status: 'failed', failed: t.failed }
        : { ...withRecording, status: 'passed' };
    }),
    verdicts: c.verdicts.map(({ replay: _replay, ...g }) => ({ ...g, end: endOf(g.end) })),
    elided: c.elided,
    // The intervals and the cost per trial are written for readers; the engine recomputes them from the counts.
    metrics: (({ crowd, infraErrors, cost, recovery, intervals: _intervals, costPerTrial: _costPerTrial, ...m }) =>
      withCellFigures({
        ...m,
        ...(crowd && { crowd }),
        ...(infraErrors !== undefined && { infraErrors }),
        ...(cost !== undefined && { cost }),
        ...(recovery && { recovery: (({ interval: _interval, ...r }) => r)(recovery) }),
      }))(c.metrics),
  }));
  return finishRun({
    seed: report.run.seed,
    k: report.run.k,
    scenarios: report.run.scenarios,
    configs: report.run.configs,
    cells,
    interrupted: report.run.interrupted,
    // zod types an absent optional key as possibly undefined; a parsed report never holds one.
    ...(report.run.stopped && { stopped: report.run.stopped as RunStop }),
    keepFailures: report.run.keepFailures,
    ...(report.run.shard && { shard: report.run.shard }),
  });
}
