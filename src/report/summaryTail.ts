import type { GateResult } from '../stats/gates.js';
import type { RunResult } from '../runner/run.js';
import { failingCells, firstFailureReplay, notPassed, verdictLine } from './failures.js';
import { plural } from './format.js';
import { mark, type Painter } from './paint.js';
import { replayCommand } from '../runner/replay.js';
import { rulesFooter } from './rulesLink.js';

/**
 * The gates and the failing cells (first failing verdict and replay command each), then the
 * rules every failing verdict cites: how the console report ends, and what `compare` puts
 * under its own table.
 */
export function summaryTail(run: RunResult, gates: readonly GateResult[], p: Painter): string[] {
  const out: string[] = [];
  if (gates.length > 0) {
    const failed = gates.filter((g) => !g.passed).length;
    out.push('', p.bold(`gates: ${failed === 0 ? `all ${gates.length} held` : `${failed} of ${gates.length} failed`}`));
    out.push(...gates.map((g) => `  ${mark(p, g.passed)} ${g.message}`));
  }
  const failing = failingCells(run.cells);
  const cited: string[] = [];
  if (failing.length > 0) {
    out.push('', p.bold('failures'));
    for (const { cell, failed, count, checks } of failing) {
      const first = failed[0];
      const verdict = first && notPassed(first)[0];
      out.push(
        `  ${mark(p, false)} ${cell.scenario} × ${cell.config}: ${count} of ${plural(cell.metrics.trials, 'trial')} failed ` +
          `(${checks.join(', ')})`,
      );
      // Every failing verdict of every failed trial names its rules, not only the one shown:
      // a first verdict that cites none (a goal unmet) must not hide the rest.
      for (const trial of failed) for (const v of notPassed(trial)) cited.push(verdictLine(v));
      if (first && verdict) out.push(`      trial ${first.trialIndex}: ${verdictLine(verdict)}`);
      const replay = first ? replayCommand(first) : firstFailureReplay(run, cell);
      if (replay !== undefined) out.push(`      replay: ${p.dim(replay)}`);
    }
    const rules = rulesFooter(cited);
    if (rules !== undefined) out.push(`  ${p.dim(rules)}`);
  }
  return out;
}
