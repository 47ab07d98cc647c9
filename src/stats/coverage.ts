import { mustFire } from '../faults/mustFire.js';
import type { FaultPlan } from '../faults/plan.js';
import { ruleLabel } from '../faults/ruleLabel.js';

/** One rule of a cell's fault plan, as coverage names it. */
export interface RuleInfo {
  /** Its index in the plan: `faults[rule]`. */
  readonly rule: number;
  /** What it matches and its fault: `create_order call 7, partial_write`. */
  readonly label: string;
  /** False for `expect: may-not-fire` (and the rules `sweep` and `explore` add). */
  readonly mustFire: boolean;
}

/** How often one rule fired over a cell's trials. */
export interface RuleCoverage extends RuleInfo {
  /** Trials in which it fired at least once. */
  readonly trials: number;
  /** Times it fired, over every trial. */
  readonly firings: number;
}

/** Fault events per rule in one trial, as `[rule, firings]`, by rule. */
export type RuleFirings = readonly (readonly [rule: number, firings: number])[];

/**
 * The coverage index of a scenario's `crash.agent` trigger: not a rule of the fault plan, but
 * planned like one, so a crash that never fired (an `atMs` after the agent ended, an `afterCall`
 * past its last call) leaves the cell not exercised instead of passing with no crash at all.
 */
export const CRASH_RULE = -1;

/** How reports name a coverage rule: `faults[2]`, or `crash.agent` for the crash trigger. */
export const ruleRef = (rule: number): string => (rule === CRASH_RULE ? 'crash.agent' : `faults[${rule}]`);

/** The cell's planned rules: its fault plan's, and the crash trigger (labelled by `crash`, its text) when it has one. */
export const ruleInfos = (plan: FaultPlan, crash?: string): RuleInfo[] => [
  ...(crash !== undefined ? [{ rule: CRASH_RULE, label: crash, mustFire: true }] : []),
  ...plan.map((r, rule) => ({ rule, label: ruleLabel(r), mustFire: mustFire(r) })),
];

/**
 * A cell's fault coverage as trials (or shards' cells) arrive: per rule, the trials it fired
 * in and its firings. Sums only, so any order and any split into shards gives the same figures.
 */
export class CoverageTally {
  readonly #rules = new Map<number, { info: RuleInfo; trials: number; firings: number }>();

  constructor(rules: readonly RuleInfo[] = []) {
    for (const info of rules) this.#rules.set(info.rule, { info, trials: 0, firings: 0 });
  }

  #entry(rule: number, info?: RuleInfo): { info: RuleInfo; trials: number; firings: number } {
    let e = this.#rules.get(rule);
    // A rule known only by its firings (a cell built from trials alone) is named by its index.
    if (!e)
      this.#rules.set(
        rule,
        (e = { info: info ?? { rule, label: ruleRef(rule), mustFire: true }, trials: 0, firings: 0 }),
      );
    return e;
  }

  add(firings: RuleFirings): void {
    for (const [rule, n] of firings) {
      if (n <= 0) continue;
      const e = this.#entry(rule);
      e.trials++;
      e.firings += n;
    }
  }

  addCoverage(coverage: readonly RuleCoverage[]): void {
    for (const { trials, firings, ...info } of coverage) {
      const e = this.#entry(info.rule, info);
      e.trials += trials;
      e.firings += firings;
    }
  }

  coverage(): RuleCoverage[] {
    return [...this.#rules.values()]
      .sort((a, b) => a.info.rule - b.info.rule)
      .map((e) => ({ ...e.info, trials: e.trials, firings: e.firings }));
  }
}

/** The rules that make a cell of `trials` trials not exercised: expected to fire, fired in none. */
export const unexercised = (coverage: readonly RuleCoverage[], trials: number): RuleCoverage[] =>
  trials === 0 ? [] : coverage.filter((r) => r.mustFire && r.trials === 0);

/** `faults[0] (create_order call 7, partial_write) never fired in 4 trials: the cell is not exercised`. */
export const notExercisedMessage = (r: RuleInfo, trials: number): string =>
  `${ruleRef(r.rule)} (${r.label}) never fired in ${trials} trial${trials === 1 ? '' : 's'}: the cell is not exercised`;

/** `2/4 trials, 3×`: how a report shows one rule's coverage. */
export const coverageText = (r: RuleCoverage, trials: number): string =>
  `${r.trials}/${trials} trials, ${r.firings}×${r.mustFire ? '' : ' (may not fire)'}`;
