import type { z } from 'zod';
import { withAgentIndex } from '../agent/agentIndex.js';
import { formatIssues, formatPath } from '../core/zodIssues.js';
import { parsePlaceholder } from '../model/placeholders.js';
import type { Step } from '../model/script.js';
import { QUERY_OPERATION_STATUS, QueryOperationStatusInputSchema } from '../runtime/queryOperationStatusTool.js';
import type { World } from '../world/World.js';
import type { CheckedScenario } from './checkedScenario.js';

type Path = readonly PropertyKey[];

/**
 * A scripted agent's step whose input the tool's own input schema refuses. faultline's runtime
 * makes that very call, so every trial that reaches the step would fail on it ("the arguments …
 * do not match its schema"): refused at load instead, naming the field and what was expected.
 *
 * Only what is known at load is judged:
 * - a `$step.path` placeholder is filled at run time (and checked then): nothing at or under it
 *   is judged, nor a refinement or union of an object or list that holds one;
 * - `{agent}` is judged as the first agent's copy fills it (`{agent}` alone becomes the number 0);
 * - a step with `fixes` is judged as the call after the fix: its first call may break the schema
 *   on purpose, to see the model repair it (R14).
 * The stand-in model's plan for an `http` or `command` agent is not judged: the agent's own code
 * stands between the model's arguments and the tool, and may add or reshape fields.
 */
export function stepInputProblems(scenario: CheckedScenario, world: World): string[] {
  if (scenario.agent.kind !== 'scripted') return [];
  const inputs = new Map<string, z.ZodType>(world.tools.map((t) => [t.name, t.input]));
  inputs.set(QUERY_OPERATION_STATUS, QueryOperationStatusInputSchema);
  const out: string[] = [];
  scenario.agent.plan.steps.forEach((step, i) => {
    const at = ['agent', 'plan', 'steps', i];
    out.push(...callProblems(inputs.get(step.tool), step.tool, stepCall(step, at)));
    if (step.poll)
      out.push(
        ...callProblems(inputs.get(step.poll.tool), step.poll.tool, plainCall(step.poll.input, [...at, 'poll'])),
      );
  });
  return out;
}

/** A call as a step writes it: the input, and where each of its top-level fields is written in the scenario. */
interface WrittenCall {
  readonly input: Readonly<Record<string, unknown>>;
  readonly fieldAt: (key: PropertyKey | undefined) => Path;
}

const plainCall = (input: Readonly<Record<string, unknown>>, at: Path): WrittenCall => ({
  input,
  fieldAt: () => [...at, 'input'],
});

/** The step's call; with `fixes`, the call after the fix (the model sends the input with the fixed fields over it). */
function stepCall(step: Step, at: Path): WrittenCall {
  const { fixes } = step;
  if (fixes === undefined) return plainCall(step.input, at);
  return {
    input: { ...step.input, ...fixes },
    fieldAt: (key) => [...at, typeof key === 'string' && Object.hasOwn(fixes, key) ? 'fixes' : 'input'],
  };
}

/** The lines for one call the tool's schema refuses; none for a tool no service has (another check names it). */
function callProblems(schema: z.ZodType | undefined, tool: string, call: WrittenCall): string[] {
  if (schema === undefined) return [];
  const holes: Path[] = [];
  const parsed = schema.safeParse(asSent(withAgentIndex(call.input, 0), [], holes));
  if (parsed.success) return [];
  const by = `(by the input schema of "${tool}")`;
  return parsed.error.issues
    .filter((issue) => !holes.some((hole) => excused(issue, hole)))
    .flatMap((issue) => {
      const [first] = issue.path;
      // An unknown field is named itself (`input.extra`), not the object that holds it.
      if (issue.code === 'unrecognized_keys')
        return issue.keys.map(
          (key) => `${formatPath([...call.fieldAt(first ?? key), ...issue.path, key])}: no such field ${by}`,
        );
      return formatIssues([missing(issue)], call.fieldAt(first)).map((line) => `${line} ${by}`);
    });
}

/** A required field the step leaves out says so, rather than that it "received undefined". */
function missing(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_type' || !issue.message.endsWith(', received undefined')) return issue;
  return { ...issue, message: `missing: expected ${issue.expected}` };
}

/**
 * `value` as the runtime sends it once the placeholders are filled: `$$x` is the literal `$x`; a
 * placeholder stays as written and its path goes to `holes`.
 */
function asSent(value: unknown, path: PropertyKey[], holes: Path[]): unknown {
  if (typeof value === 'string') {
    if (value.startsWith('$$')) return value.slice(1);
    if (parsePlaceholder(value)) holes.push(path);
    return value;
  }
  if (Array.isArray(value)) return value.map((v: unknown, i) => asSent(v, [...path, i], holes));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asSent(v, [...path, k], holes)]));
  return value;
}

/** Whether the issue may be one a placeholder at `hole` causes: it is at or under it, or a refinement or union around it. */
function excused(issue: z.core.$ZodIssue, hole: Path): boolean {
  const within = (inner: Path, outer: Path): boolean => outer.every((k, i) => inner[i] === k);
  if (within(issue.path, hole)) return true;
  return (issue.code === 'custom' || issue.code === 'invalid_union') && within(hole, issue.path);
}
