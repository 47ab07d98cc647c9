import { formatPath } from '../core/zodIssues.js';
import { declaresPath } from '../faults/declaredOutput.js';
import type { FaultPlan } from '../faults/plan.js';
import type { World } from '../world/World.js';

/**
 * Lie rules that could never change an answer, refused at load rather than reported afterwards
 * as not exercised: a `stale` rule aimed only at writes (a write's own answer is never stale),
 * and a `wrong_value` path that no answer of the tools it names can hold (by their declared output).
 * A rule that says `expect: may-not-fire` is left alone.
 */
export function lieProblems(plan: FaultPlan, world: World, reshaped: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  const tools = new Map(world.tools.map((t) => [t.name, t]));
  plan.forEach((rule, i) => {
    const { fault, match } = rule;
    // `may-not-fire` says so outright (explore keeps such a rule for its draws): nothing to refuse.
    if ((fault.kind !== 'stale' && fault.kind !== 'wrong_value') || rule.expect === 'may-not-fire') return;
    // Status queries answer an OperationStatus, a read whatever the tool: only the calls themselves are judged here.
    if ((match.purpose ?? 'call') !== 'call' || match.tool === undefined) return;
    const named = (typeof match.tool === 'string' ? [match.tool] : match.tool).map((name) => tools.get(name));
    // A model route or an unknown name is another check's: nothing can be said of it here.
    if (named.some((t) => t === undefined)) return;
    const specs = named as NonNullable<(typeof named)[number]>[];
    const at = formatPath(['faults', i, 'fault']);
    if (fault.kind === 'stale') {
      if (specs.every((t) => t.risk !== 'read')) {
        out.push(
          `${at}: stale never fires on ${specs.map((t) => `"${t.name}" (risk: ${t.risk})`).join(', ')}: ` +
            `a write's own answer is never stale; expected a tool of risk "read", or match.purpose: ` +
            `status for the status query after the write`,
        );
      }
      return;
    }
    const path = fault.path.split('.');
    // A route that reshapes a tool's result (its `output` function) answers a body its declared output does not describe.
    if (specs.some((t) => reshaped.has(t.name))) return;
    if (specs.every((t) => declaresPath(t.output, path) === false)) {
      out.push(
        `${formatPath(['faults', i, 'fault', 'path'])}: "${fault.path}": no answer of ` +
          `${specs.map((t) => `"${t.name}"`).join(', ')} has that field by its declared output, so ` +
          `the lie could never be told; expected a path its output declares`,
      );
    }
  });
  return out;
}
