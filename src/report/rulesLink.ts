import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The rules page shipped with the package (`docs/rules.md`), one anchor per rule (`#r5`). */
export const RULES_DOC = fileURLToPath(new URL('../../docs/rules.md', import.meta.url));

const RULE = /\bR([1-9]\d?)\b/g;

/** The rules (`R5`, `R23`) named in `texts`, once each, in rule order. */
export function rulesCited(texts: readonly string[]): string[] {
  const numbers = new Set<number>();
  for (const text of texts) for (const m of text.matchAll(RULE)) numbers.add(Number(m[1]));
  return [...numbers].sort((a, b) => a - b).map((n) => `R${n}`);
}

/**
 * One line pointing from the rules named in `texts` to the page that explains them, as a path
 * a terminal user can open (`node_modules/faultline/docs/rules.md#r5` in a user's project);
 * undefined when no rule is named.
 */
export function rulesFooter(texts: readonly string[], cwd: string = process.cwd()): string | undefined {
  const rules = rulesCited(texts);
  if (rules.length === 0) return undefined;
  const rel = relative(cwd, RULES_DOC);
  const doc = rel.startsWith('..') ? RULES_DOC : rel;
  return `rules: ${rules.join(' ')} (explained in ${doc}#${rules[0]!.toLowerCase()})`;
}
