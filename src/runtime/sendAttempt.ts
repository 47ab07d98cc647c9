import { TimeoutError, type Clock, type Transport, type WireRequest } from '../core/index.js';

/** One attempt's raw outcome, before classification. */
export type AttemptResult = { readonly kind: 'ok'; readonly value: unknown } | { readonly kind: 'error'; readonly error: unknown };
export type AttemptResultKind = AttemptResult['kind'];

/**
 * Sends one request with the caller's own timeout on `clock`. The race guards against a
 * transport that ignores the signal: the caller stops waiting either way, as a real client does.
 */
export async function sendAttempt(transport: Transport, clock: Clock, request: WireRequest, timeoutMs: number | undefined): Promise<AttemptResult> {
  const controller = new AbortController();
  const timer = timeoutMs === undefined ? undefined : clock.setTimer(timeoutMs, () => controller.abort(new TimeoutError(timeoutMs)));
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true });
  });
  try {
    const value = await Promise.race([transport.send(request, controller.signal), aborted]);
    return { kind: 'ok', value };
  } catch (error) {
    return { kind: 'error', error };
  } finally {
    if (timer !== undefined) clock.clearTimer(timer);
  }
}
