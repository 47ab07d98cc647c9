/**
 * Builds an error without capturing a stack. Injected failures and simulated refusals have
 * no meaningful stack (it would only point into the harness), and capturing one costs more
 * than the rest of the attempt; a crowd of clients meets thousands of them per trial.
 */
export function stackless<E extends Error>(make: () => E): E {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
