import { TimeoutError, type Clock, type Transport, type WireRequest } from '../core/index.js';
import type { SignalPool } from './SignalPool.js';

/** One attempt's raw outcome, before classification. */
export type AttemptResult = { readonly kind: 'ok'; readonly value: unknown } | { readonly kind: 'error'; readonly error: unknown };
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
 */
export async function sendAttempt(transport: Transport, clock: Clock, request: WireRequest, timeoutMs: number | undefined, signals?: SignalPool): Promise<AttemptResult> {
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
  try {
    const sending = transport.send(request, controller.signal);
    const answer = await new Promise<unknown>((resolve) => {
      stop = resolve;
      void Promise.resolve(sending).then(resolve, (error: unknown) => resolve(new Refusal(error)));
    });
    return answer instanceof Refusal ? { kind: 'error', error: answer.error } : { kind: 'ok', value: answer };
  } catch (error) {
    // Only a transport that throws instead of returning a promise gets here.
    return { kind: 'error', error };
  } finally {
    if (timer !== undefined) clock.clearTimer(timer);
    if (lent) pool?.give(lent);
  }
}
