import type { TrialSummary } from '../runner/trial.js';
import { colorEnabled, compactJson, formatTimeline, rulesFooter, verdictLines } from '../report/index.js';
import { mark, painter, type Painter } from '../report/paint.js';
import type { Io } from './io.js';

/**
 * One rerun trial on stdout, as `faultline replay` and `faultline sweep --replay` print it:
 * a heading (`title` gets the painter and the trial's status), the timeline and the verdicts;
 * with `json`, the history alone.
 */
export function printTrial(
  trial: TrialSummary,
  io: Io,
  json: boolean,
  title: (p: Painter, status: string) => string,
): void {
  if (json) {
    io.stdout.write(`${JSON.stringify(trial.history, null, 2)}\n`);
    return;
  }
  const p = painter(colorEnabled(io.stdout, io.env));
  const status =
    trial.status === 'passed'
      ? p.green('passed')
      : trial.status === 'infra-error'
        ? p.bold(`infra-error (${trial.message})`)
        : p.red(`failed (${trial.failed.join(', ')})`);
  const lines = [
    title(p, status),
    '',
    formatTimeline(trial.history).trimEnd(),
    '',
    p.bold('verdicts'),
    ...verdictLines(trial.checks).map((l, i) => {
      const v = trial.checks[i]!.verdict;
      const evidence =
        v.valid === false && v.evidence.length > 0 ? `\n      evidence: ${compactJson(v.evidence, 2000)}` : '';
      return `  ${l.replace(/^[✓✗]/, (m) => mark(p, m === '✓'))}${evidence}`;
    }),
  ];
  const rules = rulesFooter(trial.checks.map((c) => (c.verdict.valid === true ? '' : c.verdict.message)));
  if (rules !== undefined) lines.push('', p.dim(rules));
  io.stdout.write(`${lines.join('\n')}\n`);
}
