import type { Clock } from './Clock.js';

type Hold = <T>(work: Promise<T>) => Promise<T>;

/**
 * The clock's `hold` when it has one (the virtual clock), else `undefined`: real work in flight
 * (a local process, an HTTP exchange) keeps virtual time still while it runs.
 */
export function holdOf(clock: Clock): Hold | undefined {
  const h = (clock as { hold?: Hold }).hold;
  if (typeof h !== 'function') return undefined;
  return <T>(work: Promise<T>): Promise<T> => h.call(clock, work) as Promise<T>;
}

/** `holdOf`, or a no-op on a clock without `hold` (a real clock): for callers that always wrap their work. */
export function holdOn(clock: Clock): Hold {
  return holdOf(clock) ?? ((work) => work);
}
