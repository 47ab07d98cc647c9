import type { GateResult } from '../stats/gates.js';
import type { Cell, RunResult } from '../runner/run.js';
import type { RunStop } from '../stats/runResult.js';
import { failedChecks, failedTrialLines, isFailed } from './failures.js';
import { formatRate, plural } from './format.js';
import { confidenceText } from './intervalText.js';
import type { Interval } from '../stats/intervals.js';
import { escapeXmlText, openTag } from './xml.js';
import { notExercisedMessage, ruleRef, unexercised } from '../stats/coverage.js';

export interface JunitReportOptions {
  /** When given, the gates form one more test suite, so a broken gate shows in CI as a failed test. */
  readonly gates?: readonly GateResult[];
}

const GATES_SUITE = 'faultline gates';

/** A case's figures as testcase properties (as pytest's `record_property` writes them), for CI that shows them. */
/** The `stopped` property's value: the limit reached, or the process death and the trial it took. */
const stopWords = (stop: RunStop): string =>
  stop.reason === 'max-cost'
    ? `max-cost ${stop.limit}`
    : `process-died${stop.trial === undefined ? '' : ` in ${stop.trial}`}: ${stop.cause}`;

function caseProperties(cell: Cell, k: number): string[] {
  const m = cell.metrics;
  const intervals = m.intervals;
  // Beside each rate, its interval as `[lower, upper]` under its own name, so a reader of the rate's property is unchanged.
  const within = (name: string, i: Interval | undefined): [string, string][] =>
    i === undefined
      ? []
      : [[`${name} ${confidenceText(intervals.confidence)} interval`, `[${formatRate(i[0])}, ${formatRate(i[1])}]`]];
  const props: [string, string | number][] = [
    ['pass^1', formatRate(m.passHat[0])],
    ...within('pass^1', intervals.hat[0]),
    // With k = 1, pass^k is pass^1: one property each, not two of the same name.
    ...(k > 1
      ? [[`pass^${k}`, formatRate(m.passHat[k - 1])] as [string, string], ...within(`pass^${k}`, intervals.hat[k - 1])]
      : []),
    [`pass@${k}`, formatRate(m.passAt[k - 1])],
    ...within(`pass@${k}`, intervals.at[k - 1]),
    ['model_tokens_in', m.tokens.input],
    ['model_tokens_out', m.tokens.output],
    // Fault coverage: per rule, the trials it fired in and its firings.
    ...m.coverage.map((r): [string, string] => [
      `${ruleRef(r.rule)} ${r.label}`,
      `fired in ${r.trials}/${m.trials} trials, ${r.firings} times${r.mustFire ? '' : ' (may not fire)'}`,
    ]),
  ];
  return [
    '      <properties>',
    ...props.map(([name, value]) => `        ${openTag('property', { name, value })}/>`),
    '      </properties>',
  ];
}

function testcase(config: string, scenario: string, cell: Cell | undefined, k: number): string[] {
  const head = `    ${openTag('testcase', { classname: config, name: scenario })}`;
  if (!cell)
    return [
      `${head}>`,
      `      ${openTag('skipped', { message: 'not run: the run was interrupted' })}/>`,
      '    </testcase>',
    ];
  const count = cell.metrics.trials - cell.metrics.successes;
  // A cell whose fault never happened fails as a case too: its passing trials proved nothing.
  const silent = unexercised(cell.metrics.coverage, cell.metrics.trials).map((r) =>
    notExercisedMessage(r, cell.metrics.trials),
  );
  if (count === 0 && silent.length === 0) return [`${head}>`, ...caseProperties(cell, k), '    </testcase>'];
  if (count === 0) {
    return [
      `${head}>`,
      ...caseProperties(cell, k),
      `      ${openTag('failure', { message: silent.join('; '), type: 'not-exercised' })}>${escapeXmlText(silent.join('\n'))}</failure>`,
      '    </testcase>',
    ];
  }
  const checks = failedChecks(cell);
  const message = [`${count} of ${plural(cell.metrics.trials, 'trial')} failed: ${checks.join(', ')}`, ...silent].join(
    '; ',
  );
  const elided =
    cell.elided > 0
      ? [`…and ${plural(cell.elided, 'more failed trial')}, counted but not kept (see --keep-failures)`]
      : [];
  const body = [...cell.trials.filter(isFailed).flatMap((t) => failedTrialLines(t)), ...elided].join('\n');
  return [
    `${head}>`,
    ...caseProperties(cell, k),
    `      ${openTag('failure', { message, type: checks.join(',') })}>${escapeXmlText(body)}</failure>`,
    '    </testcase>',
  ];
}

function properties(run: RunResult, config: string): string[] {
  const props: [string, string | number][] = [
    ['seed', run.seed],
    ['k', run.k],
    ['config', config],
    ['interrupted', String(run.interrupted)],
    ...run.cells
      .filter((c) => c.config === config && (c.metrics.infraErrors ?? 0) > 0)
      .map((c): [string, number] => [`infraErrors:${c.scenario}`, c.metrics.infraErrors!]),
    ...run.cells
      .filter((c) => c.config === config && c.metrics.cost !== undefined)
      .map((c): [string, number] => [`cost:${c.scenario}`, c.metrics.cost!]),
    ...(run.stopped ? [['stopped', stopWords(run.stopped)] as [string, string]] : []),
  ];
  return [
    '    <properties>',
    ...props.map(([name, value]) => `      ${openTag('property', { name, value })}/>`),
    '    </properties>',
  ];
}

function suite(run: RunResult, config: string): { xml: string[]; tests: number; failures: number; skipped: number } {
  const cases = run.scenarios.map((s) => ({
    scenario: s,
    cell: run.cells.find((c) => c.config === config && c.scenario === s),
  }));
  const failures = cases.filter(
    (c) =>
      c.cell !== undefined &&
      (c.cell.metrics.successes < c.cell.metrics.trials ||
        unexercised(c.cell.metrics.coverage, c.cell.metrics.trials).length > 0),
  ).length;
  const skipped = cases.filter((c) => !c.cell).length;
  const xml = [
    `  ${openTag('testsuite', { name: config, tests: cases.length, failures, errors: 0, skipped })}>`,
    ...properties(run, config),
    ...cases.flatMap((c) => testcase(config, c.scenario, c.cell, run.k)),
    '  </testsuite>',
  ];
  return { xml, tests: cases.length, failures, skipped };
}

function gatesSuite(gates: readonly GateResult[]): { xml: string[]; tests: number; failures: number } {
  const failures = gates.filter((g) => !g.passed).length;
  const cases = gates.flatMap((g) => {
    const head = `    ${openTag('testcase', { classname: 'gates', name: g.gate })}`;
    if (g.passed) return [`${head}/>`];
    return [`${head}>`, `      ${openTag('failure', { message: g.message, type: 'gate' })}/>`, '    </testcase>'];
  });
  return {
    xml: [
      `  ${openTag('testsuite', { name: GATES_SUITE, tests: gates.length, failures, errors: 0, skipped: 0 })}>`,
      ...cases,
      '  </testsuite>',
    ],
    tests: gates.length,
    failures,
  };
}

/**
 * JUnit XML: one `<testsuite>` per configuration, one `<testcase>` per scenario in it
 * (`classname` = config, `name` = scenario), failing when any trial failed; each case's
 * properties carry pass^1, pass^k, pass@k, each one's 95% interval, and the model tokens; the failure body lists each
 * failing trial's verdicts, evidence and replay command.
 */
export function renderJunitReport(run: RunResult, options: JunitReportOptions = {}): string {
  const suites = run.configs.map((c) => suite(run, c));
  const gates = options.gates && options.gates.length > 0 ? gatesSuite(options.gates) : undefined;
  const tests = suites.reduce((a, s) => a + s.tests, 0) + (gates?.tests ?? 0);
  const failures = suites.reduce((a, s) => a + s.failures, 0) + (gates?.failures ?? 0);
  const skipped = suites.reduce((a, s) => a + s.skipped, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `${openTag('testsuites', { name: 'faultline', tests, failures, errors: 0, skipped })}>`,
    ...suites.flatMap((s) => s.xml),
    ...(gates?.xml ?? []),
    '</testsuites>',
    '',
  ].join('\n');
}
