import { TimeoutError, type Clock, type Transport, type WireRequest } from '../core/index.js';
import type { SignalPool } from './SignalPool.js';

/** One attempt's raw outcome, before classification. */
export type AttemptResult = { readonly kind: 'ok'; readonly value: unknown } | { readonly kind: 'error'; readonly error: unknown };
export type AttemptResultKind = AttemptResult['kind'];

/**
 * Sends one request with the caller's own timeout on `clock`. The race guards against a
 * transport that ignores the signal: the caller stops waiting either way, as a real client does.
 *
 * The race is built by hand, with no abort listener of its own: the timer rejects it. It keeps
 * the microtask hops of `Promise.race([send, aborted])` exactly (the order of events at one
 * virtual instant depends on them): the answer settles it in one reaction job, and the timeout
 * in one job queued before the signal's listeners run, as the `aborted` promise's reaction was.
 * With `signals`, a transport that lets go of its signal (`releasesSignal`) gets a reused one.
 */
export async function sendAttempt(transport: Transport, clock: Clock, request: WireRequest, timeoutMs: number | undefined, signals?: SignalPool): Promise<AttemptResult> {
  const pool = transport.releasesSignal === true ? signals : undefined;
  const lent = pool?.take();
  const controller = lent ?? new AbortController();
  let stop: ((reason: unknown) => void) | undefined;
  const timer =
    timeoutMs === undefined
      ? undefined
      : clock.setTimer(timeoutMs, () => {
          const reason = new TimeoutError(timeoutMs);
          const reject = stop;
          if (reject) queueMicrotask(() => reject(reason));
          controller.abort(reason);
        });
  try {
    const sending = transport.send(request, controller.signal);
    const value = await new Promise<unknown>((resolve, reject) => {
      stop = reject;
      void Promise.resolve(sending).then(resolve, reject);
    });
    return { kind: 'ok', value };
  } catch (error) {
    return { kind: 'error', error };
  } finally {
    if (timer !== undefined) clock.clearTimer(timer);
    if (lent) pool?.give(lent);
  }
}
