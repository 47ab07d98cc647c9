import type { TrialEnd } from '../checks/record.js';

/**
 * What ends a trial whose own values (a tool's input or output, a service's state, the agent's
 * answer) nest too deep for faultline's walks over them: the engine's recursion, not the agent's,
 * ran out of stack while recording, judging or scrubbing the trial.
 */
export const TOO_DEEP: Extract<TrialEnd, { kind: 'crashed' }> = {
  kind: 'crashed',
  message:
    "a value in this trial (a tool's input or output, a service's state or the agent's answer) is " +
    'nested too deep for faultline to record and judge (RangeError: Maximum call stack size exceeded); ' +
    'the trial is judged as crashed, from a fresh world',
};

/** Whether `error` is the engine running out of stack (V8's RangeError for it). */
export const isStackOverflow = (error: unknown): boolean =>
  error instanceof RangeError && error.message.includes('call stack');

/**
 * `body(options)`, or, if it ran out of stack, `body` again on the same trial marked lost with
 * `TOO_DEEP`: agent code, however deep the data it hands over, ends its own trial, never the run.
 * A trial already lost is not tried a third time.
 */
export async function endingItsOwnTrial<O extends { readonly lost?: unknown }, T>(
  options: O,
  body: (options: O) => Promise<T>,
): Promise<T> {
  try {
    return await body(options);
  } catch (error) {
    if (!isStackOverflow(error) || options.lost !== undefined) throw error;
    return body({ ...options, lost: TOO_DEEP });
  }
}
