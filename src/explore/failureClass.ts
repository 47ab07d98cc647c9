import { BUILTIN_CHECKERS } from '../checks/index.js';
import type { TrialSummary } from '../runner/trial.js';

/**
 * A kind of failure explore reports once, with its own shrunk plan: a checker and a rule it
 * cites (`duplicates/R24`, `retry-discipline/R9`), the checker alone when its verdict cites no
 * rule (`budget`), or `crashed` for an agent that crashed (which only goal-state would judge).
 */
export type FailureClass = string;

/** The class of a crashed agent: no checker explore judges by reports it. */
export const CRASHED = 'crashed';

/** The rulebook's rules, R1 to R31 (docs/rules.md). */
const RULES = 31;

// A problem's rules in its message, "(R21, R27)": the first is the one it breaks, the rest explain it.
const CITED = /\((R\d+)(?:, R\d+)*\)/g;

/** The rules one failing verdict names: each problem's own (`evidence.rule`) and the first of each parenthesised citation. */
function rulesOf(message: string, evidence: readonly unknown[]): string[] {
  const rules = new Set<string>();
  for (const e of evidence) {
    const rule = typeof e === 'object' && e !== null ? (e as { rule?: unknown }).rule : undefined;
    if (typeof rule === 'string' && /^R\d+$/.test(rule)) rules.add(rule);
  }
  for (const m of message.matchAll(CITED)) rules.add(m[1]!);
  return [...rules].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
}

/** The failure classes of one trial, sorted: what each checker that did not pass found, and a crash. */
export function failureClasses(trial: TrialSummary): FailureClass[] {
  const classes = new Set<FailureClass>();
  if (trial.end.kind === 'crashed') classes.add(CRASHED);
  for (const { name, verdict } of trial.checks) {
    if (verdict.valid === true) continue;
    const cited = rulesOf(verdict.message, verdict.valid === false ? verdict.evidence : []);
    // A checker of one rule breaks that rule, whether or not its message says so.
    const own = BUILTIN_CHECKERS.find((c) => c.name === name)?.rules ?? [];
    const rules = cited.length > 0 ? cited : own.length === 1 ? [...own] : [];
    if (rules.length === 0) classes.add(name);
    for (const rule of rules) classes.add(`${name}/${rule}`);
  }
  return [...classes].sort();
}

/** What `--ignore` names: a checker, a rule, one class (`checker/Rn`) or `crashed`. */
export type IgnoreEntry =
  | { readonly kind: 'checker'; readonly name: string }
  | { readonly kind: 'rule'; readonly rule: string }
  | { readonly kind: 'class'; readonly failure: FailureClass };

/**
 * `--ignore` values (repeatable, each a comma list) as entries; a message naming the first
 * value that is none of a checker, a rule R1–R31, `checker/Rn` or `crashed`.
 */
export function parseIgnore(
  values: readonly string[],
): { readonly entries: IgnoreEntry[] } | { readonly error: string } {
  const checkers = BUILTIN_CHECKERS.map((c) => c.name);
  const entries: IgnoreEntry[] = [];
  for (const value of values.flatMap((v) => v.split(',')).map((v) => v.trim())) {
    const rule = /^r(\d+)$/i.exec(value);
    const pair = /^([a-z-]+)\/R(\d+)$/.exec(value);
    if (value === '')
      return {
        error: `--ignore: expected a checker, a rule (R1 to R${RULES}) or a failure class (such as duplicates/R24), got an empty name`,
      };
    if (checkers.includes(value)) entries.push({ kind: 'checker', name: value });
    else if (value === CRASHED) entries.push({ kind: 'class', failure: CRASHED });
    else if (rule && Number(rule[1]) >= 1 && Number(rule[1]) <= RULES)
      entries.push({ kind: 'rule', rule: `R${Number(rule[1])}` });
    else if (pair && checkers.includes(pair[1]!) && Number(pair[2]) >= 1 && Number(pair[2]) <= RULES)
      entries.push({ kind: 'class', failure: `${pair[1]}/R${Number(pair[2])}` });
    else
      return {
        error:
          `--ignore: "${value}" is not a checker (${checkers.join(', ')}), a rule (R1 to R${RULES}), ` +
          `a failure class (such as duplicates/R24) or ${CRASHED}`,
      };
  }
  return { entries };
}

/** Whether `--ignore` covers a class: its checker, its rule or the class itself is named. */
export function isIgnored(failure: FailureClass, ignore: readonly IgnoreEntry[]): boolean {
  const [checker, rule] = failure.split('/');
  return ignore.some((e) =>
    e.kind === 'checker' ? e.name === checker : e.kind === 'rule' ? e.rule === rule : e.failure === failure,
  );
}
