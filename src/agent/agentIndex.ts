import type { ScriptPlan } from '../model/script.js';

/**
 * `{agent}` in a scenario's plan stands for the agent's index (0-based) when a scenario runs
 * many agents, so each writes its own key: `jobId: "job-{agent}"`. A string that is exactly
 * `{agent}` becomes the number; `{{agent}}` is a literal `{agent}`. It cannot be read as a
 * `$step.path` placeholder, which always starts with `$`.
 */
export const AGENT_PLACEHOLDER = '{agent}';

const PATTERN = /\{\{agent\}\}|\{agent\}/g;

/** `value` with every `{agent}` replaced by `index`, depth first through arrays and objects. */
export function withAgentIndex<T>(value: T, index: number): T {
  if (typeof value === 'string') {
    if (value === AGENT_PLACEHOLDER) return index as T;
    return (
      value.includes('{')
        ? value.replace(PATTERN, (m) => (m === AGENT_PLACEHOLDER ? String(index) : AGENT_PLACEHOLDER))
        : value
    ) as T;
  }
  if (Array.isArray(value)) return value.map((v: unknown) => withAgentIndex(v, index)) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withAgentIndex(v, index)])) as T;
  return value;
}

/** Agent `index`'s copy of a plan: its inputs, fixes, polls, subjects and final message with `{agent}` filled in. */
export function planForAgent(plan: ScriptPlan, index: number): ScriptPlan {
  return {
    ...plan,
    steps: plan.steps.map((step) => {
      const { input, fixes, poll, subject, ...rest } = step;
      return {
        ...rest,
        input: withAgentIndex(input, index),
        ...(fixes !== undefined && { fixes: withAgentIndex(fixes, index) }),
        ...(poll !== undefined && { poll: { ...poll, input: withAgentIndex(poll.input, index) } }),
        // A subject stays a string: `jobs:{agent}` must not turn into a number.
        ...(subject !== undefined && {
          subject: subject === AGENT_PLACEHOLDER ? String(index) : withAgentIndex(subject, index),
        }),
      };
    }),
    ...(plan.finalMessage !== undefined && { finalMessage: String(withAgentIndex(plan.finalMessage, index)) }),
  };
}
