import { TimeoutError, type Clock, type TimerHandle, type Transport, type WireRequest } from '../core/index.js';
import { takenResolve, takeResolvers } from '../core/takeResolvers.js';
import type { PooledSignal, SignalPool } from './SignalPool.js';

/** One attempt's raw outcome, before classification. */
export type AttemptResult =
  { readonly kind: 'ok'; readonly value: unknown } | { readonly kind: 'error'; readonly error: unknown };
export type AttemptResultKind = AttemptResult['kind'];

/** What ended the race without an answer: a refusal or the timeout, settling it as a value (no transport answers one of these). */
class Refusal {
  constructor(readonly error: unknown) {}
}

/**
 * Sends one request with the caller's own timeout on `clock`. The race guards against a
 * transport that ignores the signal: the caller stops waiting either way, as a real client does.
 *
 * The race is built by hand, with no abort listener of its own: the timer ends it. It keeps
 * the microtask hops of `Promise.race([send, aborted])` exactly (the order of events at one
 * virtual instant depends on them): the answer settles it in one reaction job, and the timeout
 * in one job queued before the signal's listeners run, as the `aborted` promise's reaction was.
 * A refusal or the timeout settles it too, as a `Refusal` rather than a rejection: a rejected
 * await is thrown into the function and caught, and the throw cost a failed attempt more than
 * the rest of its bookkeeping.
 * With `signals`, a transport that lets go of its signal (`releasesSignal`) gets a reused one.
 *
 * Not an async function, with the hops of one: the race's reaction (`finish`) runs where the
 * async form resumed after awaiting the race, and its promise settles the caller's await one
 * job later, as the async form's own promise did. A throw before the send rejects the promise
 * returned, as it rejected the async form's. The async form's generator, its promise and the
 * closures of its await were garbage of every attempt (sendAttempt.property.test.ts holds the
 * two forms to the same order of events).
 */
export function sendAttempt(
  transport: Transport,
  clock: Clock,
  request: WireRequest,
  timeoutMs: number | undefined,
  signals?: SignalPool,
): Promise<AttemptResult> {
  try {
    return race(transport, clock, request, timeoutMs, signals);
  } catch (error) {
    return Promise.reject(error);
  }
}

function race(
  transport: Transport,
  clock: Clock,
  request: WireRequest,
  timeoutMs: number | undefined,
  signals: SignalPool | undefined,
): Promise<AttemptResult> {
  const pool = transport.releasesSignal === true ? signals : undefined;
  const lent = pool?.take();
  const controller = lent ?? new AbortController();
  let stop: ((refusal: Refusal) => void) | undefined;
  const timer =
    timeoutMs === undefined
      ? undefined
      : clock.setTimer(timeoutMs, () => {
          const reason = new TimeoutError(timeoutMs);
          const settle = stop;
          if (settle) queueMicrotask(() => settle(new Refusal(reason)));
          controller.abort(reason);
        });
  let sending: unknown;
  try {
    sending = transport.send(request, controller.signal);
  } catch (error) {
    // Only a transport that throws instead of returning a promise gets here.
    release(clock, timer, pool, lent);
    return Promise.resolve({ kind: 'error', error });
  }
  const answered = new Promise<unknown>(takeResolvers);
  const settle = takenResolve<unknown>();
  stop = settle;
  try {
    void Promise.resolve(sending).then(settle, (error: unknown) => settle(new Refusal(error)));
  } catch (error) {
    // A thenable that throws at once: the async form's race rejected, and the rejection came back as this error.
    settle(new Refusal(error));
  }
  return answered.then((answer): AttemptResult => {
    const result: AttemptResult =
      answer instanceof Refusal ? { kind: 'error', error: answer.error } : { kind: 'ok', value: answer };
    release(clock, timer, pool, lent);
    return result;
  });
}

/** What the async form's `finally` did: the timer cleared, the lent signal given back. */
function release(
  clock: Clock,
  timer: TimerHandle | undefined,
  pool: SignalPool | undefined,
  lent: PooledSignal | undefined,
): void {
  if (timer !== undefined) clock.clearTimer(timer);
  if (lent) pool?.give(lent);
}
