import type { AgentOutcomeKind, Claim } from '../core/index.js';
import type { ToolResult, UnknownResult } from '../runtime/result.js';
import type { Behaviour } from './behaviours.js';
import type { ModelAction } from './model.js';
import { readOperationAnswer } from '../runtime/operationStatus.js';
import { parsePlaceholder, readPath, substitutePlaceholders } from './placeholders.js';
import type { Poll, ScriptPlan, Step } from './script.js';

export type FinalAction = Extract<ModelAction, { kind: 'final' }>;
/** The results of the calls the last action proposed (none after a `wait`). */
export type Reply = readonly ToolResult[];
/** A model written as a coroutine: it yields actions and is resumed with their results. */
export type Script<T> = Generator<ModelAction, T, Reply>;

/** How a step ended: with a value to go on with, or with the task's end. */
type StepEnd =
  | { readonly kind: 'ok'; readonly value: unknown }
  | {
      readonly kind: 'end';
      readonly outcome: AgentOutcomeKind;
      readonly claim: Claim['status'];
      readonly message: string;
    };

const STATUS_QUERIES = 3;
const STATUS_QUERY_GAP_MS = 2_000;
const DEFAULT_RETRY_WAIT_MS = 1_000;

const ok = (value: unknown): StepEnd => ({ kind: 'ok', value });
const end = (outcome: AgentOutcomeKind, claim: Claim['status'], message: string): StepEnd => ({
  kind: 'end',
  outcome,
  claim,
  message,
});

function* call(tool: string, input: unknown): Script<ToolResult> {
  const [result] = yield { kind: 'tool_calls', calls: [{ tool, input }] };
  if (!result) throw new Error(`scripted model: no result came back for its call to ${tool}`);
  return result;
}

function* pause(ms: number): Script<void> {
  yield { kind: 'wait', ms };
}

/**
 * Follows `plan`, reacting to each result as `behaviour` dictates; returns the final answer.
 * A function is asked once per decision (a failed or unconfirmed result to react to), so a
 * behaviour mixture draws one behaviour per decision.
 */
export function* playScript(plan: ScriptPlan, behaviour: Behaviour | (() => Behaviour)): Script<FinalAction> {
  const pick = typeof behaviour === 'function' ? behaviour : () => behaviour;
  const results = new Map<string, unknown>();
  // One claim per subject: a poll's verdict replaces the submission's.
  const claims = new Map<string, Claim>();
  const claim = (subject: string | undefined, status: Claim['status'], note?: string): void => {
    if (subject !== undefined)
      claims.set(subject, note === undefined ? { subject, status } : { subject, status, note });
  };
  const finish = (outcome: AgentOutcomeKind, message: string): FinalAction => ({
    kind: 'final',
    outcome,
    message,
    claims: [...claims.values()],
  });

  for (const step of plan.steps) {
    let done: StepEnd;
    if (step.ifEmpty !== undefined) {
      const read = yield* readCritically(step.ifEmpty, isEmpty, plan.steps, results, pick, plan.naiveRepeats);
      if (read.kind === 'end') {
        // The second read failed, not this step, which never ran: the claim is the read's own.
        claim(sourceOf(step.ifEmpty, plan.steps)?.subject, read.claim, read.message);
        return finish(read.outcome, read.message);
      }
      // Something is there already: nothing to do, and no claim about a step not taken.
      if (!isEmpty(read.value)) continue;
    }
    if (step.forEach !== undefined) {
      const read = yield* readCritically(step.forEach, () => true, plan.steps, results, pick, plan.naiveRepeats);
      if (read.kind === 'end') {
        claim(sourceOf(step.forEach, plan.steps)?.subject, read.claim, read.message);
        return finish(read.outcome, read.message);
      }
      if (!Array.isArray(read.value))
        throw new Error(
          `scripted model: forEach ${step.forEach} is not a list: ${JSON.stringify(read.value) ?? 'nothing'}`,
        );
      done = yield* forEachItem(step, read.value, results, pick, plan.naiveRepeats);
    } else done = yield* runStep(step, results, pick, plan.naiveRepeats);
    if (done.kind === 'end') {
      claim(step.subject, done.claim, done.claim === 'succeeded' ? undefined : done.message);
      return finish(done.outcome, done.message);
    }
    if (step.name !== undefined) results.set(step.name, done.value);
    claim(step.subject, 'succeeded');
    if (step.poll) {
      let polled = yield* poll(step.poll, results, pick);
      // The naive variant resubmits the task instead of reporting unknown: a second submission (R21, R23).
      for (let repeats = 0; polled.kind === 'resubmit'; repeats++) {
        const again =
          repeats < plan.naiveRepeats
            ? yield* runStep(step, results, pick, plan.naiveRepeats)
            : end('unknown', 'unknown', polled.message);
        if (again.kind === 'end') {
          polled = again;
          break;
        }
        if (step.name !== undefined) results.set(step.name, again.value);
        polled = yield* poll(step.poll, results, pick);
      }
      if (polled.kind === 'end') {
        claim(step.subject, polled.claim, polled.message);
        return finish(polled.outcome, polled.message);
      }
    }
  }
  return finish('completed', plan.finalMessage ?? `Done: ${plan.steps.map((s) => s.name ?? s.tool).join(', ')}.`);
}

/** Runs `step` once per item, `$item` naming it; the first item that ends the task ends the loop. */
function* forEachItem(
  step: Step,
  items: readonly unknown[],
  results: Map<string, unknown>,
  pick: () => Behaviour,
  naiveRepeats: number,
): Script<StepEnd> {
  const outer = results.get('item');
  const hadOuter = results.has('item');
  const values: unknown[] = [];
  try {
    for (const item of items) {
      results.set('item', item);
      const done = yield* runStep(step, results, pick, naiveRepeats);
      if (done.kind === 'end') return done;
      values.push(done.value);
    }
  } finally {
    if (hadOuter) results.set('item', outer);
    else results.delete('item');
  }
  return ok(values);
}

/**
 * The earlier result `ref` names, which a step is about to act on (`ifEmpty`, `forEach`). A
 * `verifies-critical-reads` model reads it again, after a pause, when `critical` says the answer
 * matters (an absence; any list to act on item by item) and goes by the second answer: a stale,
 * empty or cut answer is then caught. The others act on the first read.
 */
function* readCritically(
  ref: string,
  critical: (value: unknown) => boolean,
  steps: readonly Step[],
  results: Map<string, unknown>,
  pick: () => Behaviour,
  naiveRepeats: number,
): Script<StepEnd> {
  const p = parsePlaceholder(ref);
  const source = sourceOf(ref, steps);
  if (!p || !source) throw new Error(`scripted model: ${ref} names no earlier step`);
  const lookup = (): unknown => {
    const found = readPath(results.get(p.step), p.path);
    return found.found ? found.value : undefined;
  };
  const first = lookup();
  // A step run per item is no single read to repeat.
  if (!results.has(p.step) || source.forEach !== undefined || !critical(first) || pick() !== 'verifies-critical-reads')
    return ok(first);
  yield* pause(STATUS_QUERY_GAP_MS);
  const again = yield* runStep(source, results, pick, naiveRepeats);
  if (again.kind === 'end') return again;
  results.set(p.step, again.value);
  return ok(lookup());
}

/** The step whose result `ref` (`$step.path`) names. */
function sourceOf(ref: string, steps: readonly Step[]): Step | undefined {
  const p = parsePlaceholder(ref);
  // Found when asked, not from a map of the steps by name built for every play: most plans never ask. The last
  // of the name, as that map held it (the plan's schema allows a name once).
  return p ? steps.findLast((s) => s.name === p.step) : undefined;
}

/** Nothing there: an empty list or object, null, an empty string, or no such field. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/** Naive variants repeat a failed call `naiveRepeats` more times; the careful model once at most. */
function* runStep(
  step: Step,
  results: ReadonlyMap<string, unknown>,
  pick: () => Behaviour,
  naiveRepeats: number,
): Script<StepEnd> {
  let input = substitutePlaceholders(step.input, results) as Record<string, unknown>;
  let fixed = false;
  let waitedOnce = false;
  let repeats = 0;
  let resubmitted = false;
  let result = yield* call(step.tool, input);
  for (;;) {
    if (result.kind === 'ok') return ok(result.value);
    const behaviour = pick();

    if (result.kind === 'unknown') {
      const u = result.unknown;
      // No operation id: an outcome the stand-in read as unknown from an app's own text (R18).
      const what =
        `${step.tool}: outcome unknown ` +
        `(${u.error_code})${u.operation_id === '' ? `: ${u.message}` : `, operation ${u.operation_id}`}`;
      if (behaviour === 'unknown-as-failure') return end('failed', 'failed', `${what}; reported as failed`);
      if (behaviour === 'unknown-as-success') return end('completed', 'succeeded', `${what}; reported as done`);
      if (behaviour === 'new-key-per-retry' && repeats < naiveRepeats) {
        repeats++;
        result = yield* call(step.tool, input);
        continue;
      }
      const settled = yield* reconcile(
        step.tool,
        u,
        step.onAbsent === 'resubmit' && !resubmitted,
        behaviour === 'verifies-critical-reads',
      );
      if (settled.kind !== 'absent') return settled;
      // Taken at its word: nothing there, so submit again (the runtime reuses the operation's key, if it has one).
      resubmitted = true;
      result = yield* call(step.tool, input);
      continue;
    }

    const e = result.error;
    const why = `${step.tool}: ${e.error_type}: ${e.message}`;
    if (behaviour === 'retries-blindly' || (behaviour === 'ignores-retry-after' && e.retryable)) {
      if (repeats < naiveRepeats) {
        repeats++;
        result = yield* call(step.tool, input);
        continue;
      }
      return end('failed', 'failed', why);
    }
    if (e.error_type === 'invalid_argument' && step.fixes && !fixed) {
      fixed = true;
      input = { ...input, ...(substitutePlaceholders(step.fixes, results) as Record<string, unknown>) };
      result = yield* call(step.tool, input);
      continue;
    }
    // R5, R14: waiting cannot restore a quota or a permission; a person must decide.
    if (e.error_type === 'permission_denied' || e.error_type === 'quota_exceeded') return end('handoff', 'failed', why);
    // R10: retry at one layer only; if the runtime already retried, another round multiplies the load.
    if (e.retryable && result.attempts === 1 && !waitedOnce) {
      waitedOnce = true;
      yield* pause(e.retry_after_ms ?? DEFAULT_RETRY_WAIT_MS);
      result = yield* call(step.tool, input);
      continue;
    }
    return end('failed', 'failed', why);
  }
}

/**
 * R21, R27: ask for the operation's status by its id; never guess. With `actOnAbsence`, a read
 * that finds no record ends the reconciliation as `absent` (the step resubmits); `verify` reads
 * once more before believing it.
 */
function* reconcile(
  tool: string,
  u: UnknownResult,
  actOnAbsence = false,
  verify = false,
): Script<StepEnd | { readonly kind: 'absent' }> {
  const what = u.operation_id === '' ? tool : `${tool}: operation ${u.operation_id}`;
  if (u.next_action !== 'query_operation_status')
    return end('unknown', 'unknown', `${what} could not be confirmed: ${u.message}`);
  let doubted = false;
  for (let query = 1; query <= STATUS_QUERIES; query++) {
    if (query > 1) yield* pause(STATUS_QUERY_GAP_MS);
    const result = yield* call('query_operation_status', { operation_id: u.operation_id });
    const answer = readOperationAnswer(result);
    if (answer.state === 'succeeded') return ok(answer.value);
    if (answer.state === 'failed') return end('failed', 'failed', `${what} failed: ${answer.message}`);
    if (actOnAbsence && isAbsence(result)) {
      if (!verify || doubted) return { kind: 'absent' };
      doubted = true;
    }
  }
  return end('unknown', 'unknown', `${what} is still unconfirmed after ${STATUS_QUERIES} status queries`);
}

/** R20: a long task is done only when its status says so; running out of polls is `unknown`, not success. */
function* poll(
  p: Poll,
  results: ReadonlyMap<string, unknown>,
  pick: () => Behaviour,
): Script<StepEnd | { readonly kind: 'resubmit'; readonly message: string }> {
  const input = substitutePlaceholders(p.input, results);
  let last = 'no answer';
  let wait = p.everyMs;
  for (let n = 1; n <= p.maxPolls; n++) {
    yield* pause(wait);
    wait = p.everyMs;
    const result = yield* call(p.tool, input);
    if (result.kind === 'error') {
      // R9: the next poll waits out a Retry-After longer than the polling interval.
      wait = Math.max(p.everyMs, result.error.retry_after_ms ?? 0);
      // R5, R7, R14: another poll cannot restore a permission or a quota, nor fix a refused request;
      // the job was submitted, so its result is unknown, not failed. (Found by `faultline explore`.)
      const e = result.error;
      const why = `${p.tool}: ${e.error_type}: ${e.message}; the result cannot be confirmed`;
      if (e.error_type === 'permission_denied' || e.error_type === 'quota_exceeded')
        return end('handoff', 'unknown', why);
      if (!e.retryable) return end('unknown', 'unknown', why);
    }
    if (result.kind !== 'ok') continue;
    const found = readPath(result.value, p.until.path);
    if (!found.found || !isPrimitive(found.value)) continue;
    last = String(found.value);
    if (p.until.in.includes(last)) return ok(result.value);
    if (p.until.failIn.includes(last)) return end('failed', 'failed', `${p.tool}: ${p.until.path} is ${last}`);
    if (p.until.unknownIn.includes(last)) {
      const behaviour = pick();
      const what = `${p.tool}: ${p.until.path} is ${last}: the result cannot be confirmed`;
      if (behaviour === 'unknown-as-success') return end('completed', 'succeeded', `${what}; reported as done`);
      if (behaviour === 'unknown-as-failure') return end('failed', 'failed', `${what}; reported as failed`);
      if (behaviour === 'new-key-per-retry') return { kind: 'resubmit', message: what };
      return end('unknown', 'unknown', what);
    }
  }
  return end('unknown', 'unknown', `${p.tool}: ${p.until.path} still ${last} after ${p.maxPolls} polls`);
}

/** A status answer that says there is no record (not "pending", not a failed query): the absence a trusting model acts on. */
function isAbsence(result: ToolResult): boolean {
  if (result.kind === 'unknown') return /no record of it|not[ _]found/i.test(result.unknown.message);
  if (result.kind !== 'ok' || result.value === null || typeof result.value !== 'object') return false;
  const v = result.value as Record<string, unknown>;
  return v['state'] === 'not_found' || v['status'] === 'not_found';
}

const isPrimitive = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
