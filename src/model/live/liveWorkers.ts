/**
 * Live trials a core can keep going: a live trial spends its time waiting on the model, so one
 * worker per connection is what keeps the connections busy; but each worker is a process that
 * loads the agent and its SDK, and dozens of them on a small machine cost memory and start-up
 * for little more throughput.
 */
export const LIVE_WORKERS_PER_CORE = 4;

/** A live run's default worker count: one per connection, no more than its trials, at most `LIVE_WORKERS_PER_CORE` per core. */
export const defaultLiveWorkers = (maxConnections: number, trials: number, cores: number): number =>
  Math.max(1, Math.min(maxConnections, trials, LIVE_WORKERS_PER_CORE * Math.max(1, cores)));
