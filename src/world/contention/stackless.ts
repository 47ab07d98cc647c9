/**
 * Builds an error without capturing a stack: a crowd of clients meets thousands of refusals
 * and conflicts, whose stacks would only point into the harness.
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
