/*
 * A promise's resolving functions without a closure per promise: `new Promise(takeResolvers)`
 * hands them to this one executor, made once, and `takenReject()` and `takenResolve()` read them
 * straight after (a promise's executor runs at once, so nothing runs in between). The hot paths
 * of a trial (each attempt's race, each sleep, each send's race with its abort signal) made an
 * executor closure and its context per promise. The promise and its hops are those of an inline
 * executor.
 */
let resolveSlot: unknown;
let rejectSlot: unknown;

export function takeResolvers(resolve: unknown, reject: unknown): void {
  resolveSlot = resolve;
  rejectSlot = reject;
}

/** The reject function the last `new Promise(takeResolvers)` handed over; read it before `takenResolve`, which empties both. */
export function takenReject(): (reason: Error) => void {
  return rejectSlot as (reason: Error) => void;
}

/**
 * The resolve function the last `new Promise(takeResolvers)` handed over. Both are let go of:
 * held here they would keep the last promise (and what it settled with) alive after its trial.
 */
export function takenResolve<T>(): (value: T) => void {
  const resolve = resolveSlot as (value: T) => void;
  resolveSlot = rejectSlot = undefined;
  return resolve;
}
