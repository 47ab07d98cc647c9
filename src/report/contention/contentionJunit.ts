import type { ContentionComparison } from '../../runner/contention/compareContention.js';
import { openTag } from '../xml.js';

export interface ContentionJunitOptions {
  /** Every scenario and configuration asked for, so those an interrupted run never reached show as skipped. */
  readonly scenarios: readonly string[];
  readonly configs: readonly string[];
  readonly seed: number;
  readonly trials: number;
  readonly interrupted: boolean;
}

/**
 * JUnit XML for a contention comparison: a `<testsuite>` per scenario, a `<testcase>` per
 * configuration. No gates apply there, so a case that ran passes; one an interrupted run never
 * reached is skipped, and every suite carries `interrupted`, so CI shows a cancelled job as such.
 */
export function renderContentionJunit(comparisons: readonly ContentionComparison[], o: ContentionJunitOptions): string {
  let skippedTotal = 0;
  const suites = o.scenarios.flatMap((scenario) => {
    const ran = new Set(comparisons.find((c) => c.scenario.name === scenario)?.results.map((r) => r.config) ?? []);
    const skipped = o.configs.filter((c) => !ran.has(c)).length;
    skippedTotal += skipped;
    const props: [string, string | number][] = [
      ['seed', o.seed],
      ['trials', o.trials],
      ['interrupted', String(o.interrupted)],
    ];
    return [
      `  ${openTag('testsuite', { name: scenario, tests: o.configs.length, failures: 0, errors: 0, skipped })}>`,
      '    <properties>',
      ...props.map(([name, value]) => `      ${openTag('property', { name, value })}/>`),
      '    </properties>',
      ...o.configs.flatMap((config) => {
        const head = `    ${openTag('testcase', { classname: scenario, name: config })}`;
        return ran.has(config) ? [`${head}/>`] : [`${head}>`, `      ${openTag('skipped', { message: 'not run: the run was interrupted' })}/>`, '    </testcase>'];
      }),
      '  </testsuite>',
    ];
  });
  const tests = o.scenarios.length * o.configs.length;
  return ['<?xml version="1.0" encoding="UTF-8"?>', `${openTag('testsuites', { name: 'faultline contention', tests, failures: 0, errors: 0, skipped: skippedTotal })}>`, ...suites, '</testsuites>', ''].join('\n');
}
