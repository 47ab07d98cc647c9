import { TimeoutError, type Clock, type Transport, type WireRequest } from '../core/index.js';
import type { SignalPool } from './SignalPool.js';

/** One attempt's raw outcome, before classification. */
export type AttemptResult = { readonly kind: 'ok'; readonly value: unknown } | { readonly kind: 'error'; readonly error: unknown };
export type AttemptResultKind = AttemptResult['kind'];

const failed = (error: unknown): AttemptResult => ({ kind: 'error', error });

/**
 * Sends one request with the caller's own timeout on `clock`. The race guards against a
 * transport that ignores the signal: the caller stops waiting either way, as a real client does.
 *
 * The race is built by hand, with no abort listener of its own: the timer ends it. It keeps the
 * microtask hops of `Promise.race([send, aborted])` awaited in an async function exactly (the
 * order of events at one virtual instant depends on them): the answer settles the returned
 * promise two jobs after the send's own (the race's reaction, then the await's), and the timeout
 * two jobs after the timer, the first queued before the signal's listeners run, as the `aborted`
 * promise's reaction was. It is no async function, though: a refusal reaches it as a value
 * through a rejection handler, where an awaited rejection was thrown into the function and
 * caught, and a throw cost a failed attempt more than the rest of its bookkeeping.
 * With `signals`, a transport that lets go of its signal (`releasesSignal`) gets a reused one.
 */
export function sendAttempt(transport: Transport, clock: Clock, request: WireRequest, timeoutMs: number | undefined, signals?: SignalPool): Promise<AttemptResult> {
  const pool = transport.releasesSignal === true ? signals : undefined;
  const lent = pool?.take();
  const controller = lent ?? new AbortController();
  return new Promise<AttemptResult>((settle, fail) => {
    // Which came first, decided where the race settled: the answer's reaction, or the timer's first job.
    let answeredFirst = false;
    let timedOut = false;
    // What the async form's `finally` did before its return value settled its promise.
    const finish = (result: AttemptResult): void => {
      try {
        if (timer !== undefined) clock.clearTimer(timer);
        if (lent) pool?.give(lent);
      } catch (error) {
        fail(error);
        return;
      }
      settle(result);
    };
    const timer =
      timeoutMs === undefined
        ? undefined
        : clock.setTimer(timeoutMs, () => {
            const reason = new TimeoutError(timeoutMs);
            // The job that rejected the race: it loses to an answer whose reaction ran first, even after the timer fired.
            queueMicrotask(() => {
              if (answeredFirst) return;
              timedOut = true;
              queueMicrotask(() => finish(failed(reason)));
            });
            controller.abort(reason);
          });
    let sending: unknown;
    try {
      sending = transport.send(request, controller.signal);
    } catch (error) {
      finish(failed(error));
      return;
    }
    const first = (result: AttemptResult): AttemptResult | undefined => {
      if (timedOut) return undefined;
      answeredFirst = true;
      return result;
    };
    void Promise.resolve(sending)
      .then(
        (value) => first({ kind: 'ok', value }),
        (error: unknown) => first(failed(error)),
      )
      .then((result) => {
        if (result) finish(result);
      });
  });
}
