/** Said once per run that has them: the trials of a `command` agent ran on the wall clock. */
export const realTimeNote = (scenarios: readonly string[]): string =>
  `real time: ${scenarios.join(', ')} ran on the wall clock (a command agent): times are real ` +
  `milliseconds, and a replay reruns the program with the same plan and seed, where timing-dependent choices may differ`;
