let last: Promise<unknown> = Promise.resolve();

/**
 * Runs `body` once every earlier body has settled. A library trial answers the process's
 * global timers and `Math.random` from its own clock and seed while it runs, so two of them
 * in one thread at once (a test's `Promise.all` of `runTrial`s) would read each other's
 * clocks: they take turns instead. Runs of the matrix already go one trial at a time.
 */
export function withGlobalTimers<T>(body: () => Promise<T>): Promise<T> {
  const turn = last.then(body, body);
  last = turn.catch(() => undefined);
  return turn;
}
