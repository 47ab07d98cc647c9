/** Said once per run that has them: the trials of a `command` agent ran on the wall clock. */
export const realTimeNote = (scenarios: readonly string[]): string =>
  `real time: ${scenarios.join(', ')} ran on the wall clock (a command agent): times are real ` +
  `milliseconds, and a replay reruns the program with the same plan and seed, where timing-dependent choices may differ`;

/**
 * Said once by `serve` and `mcp-serve`: the world was served on the wall clock to whatever client came, and
 * the scenario's own agent (if it has one) was never started, so no command agent ran.
 */
export const servedTimeNote = (scenario: string): string =>
  `real time: ${scenario} was served on the wall clock to clients outside faultline (no agent of the ` +
  `scenario was started): times are real milliseconds, and each trial is what its client sent`;
