import type { Clock } from '../../core/index.js';

type Hold = <T>(work: Promise<T>) => Promise<T>;

/**
 * The clock's `hold` when it has one (the virtual clock): real I/O in flight (a request body
 * streaming in, a response on its way to the client) keeps virtual time still, so the client's
 * own timers cannot fire in the gap. On a real clock, a no-op.
 */
export function holdOn(clock: Clock): Hold {
  const h = (clock as { hold?: Hold }).hold;
  if (typeof h !== 'function') return (work) => work;
  return <T>(work: Promise<T>): Promise<T> => h.call(clock, work) as Promise<T>;
}

