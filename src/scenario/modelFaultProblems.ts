import { formatPath } from '../core/zodIssues.js';
import { isModelFault } from '../faults/fault.js';
import { MODEL_OPERATIONS } from '../model/api/modelOperations.js';
import type { CheckedScenario } from './checkedScenario.js';

/**
 * Rules of the model's own mistakes that could never fire, refused at load: a model-only kind
 * (`malformed_arguments`, `refusal`…) aimed only at tools, or in a scenario that serves no model;
 * `truncated` with `at` aimed only at tools; and `stale` on a model route, which means nothing
 * there (a model answer has no past state of the world to lag behind): `replayed` is the stale
 * model answer. A rule that says `expect: may-not-fire` is left alone, as `lieProblems` leaves it.
 */
export function modelFaultProblems(scenario: CheckedScenario): string[] {
  const routes = scenario.model ? MODEL_OPERATIONS[scenario.model.api] : [];
  const everyRoute = Object.values(MODEL_OPERATIONS).flat();
  const out: string[] = [];
  scenario.faults.forEach((rule, i) => {
    if (rule.expect === 'may-not-fire') return;
    const { fault, match } = rule;
    const named = match.tool === undefined ? undefined : typeof match.tool === 'string' ? [match.tool] : match.tool;
    const onModel = named?.filter((t) => everyRoute.includes(t)) ?? [];
    const modelOnly = isModelFault(fault) || (fault.kind === 'truncated' && fault.at !== undefined);
    if (modelOnly && routes.length === 0) {
      out.push(
        `${formatPath(['faults', i, 'fault', 'kind'])}: "${fault.kind}" is a model's own mistake, and this scenario ` +
          'serves no model; expected a scenario with `model: { api: openai | anthropic, … }`, or `expect: may-not-fire`',
      );
      return;
    }
    if (modelOnly && named !== undefined && onModel.length === 0) {
      out.push(
        `${formatPath(['faults', i, 'match', 'tool'])}: "${named.join('", "')}": ` +
          `"${fault.kind}${fault.kind === 'truncated' ? ` (at: ${fault.at ?? ''})` : ''}" strikes only a model's answers; ` +
          `expected a model route (${routes.join(', ')}), or no tool`,
      );
      return;
    }
    if (fault.kind === 'stale' && onModel.length > 0) {
      out.push(
        `${formatPath(['faults', i, 'fault', 'kind'])}: "stale" on ${onModel.join(', ')}: a model answer has no ` +
          'past state to lag behind; for a stale model answer use `kind: replayed` (the previous answer again)',
      );
    }
  });
  return out;
}
