import { redactText } from '../../core/secretText.js';
import { injected } from './HttpAnswer.js';

/**
 * What happens to a request no route takes, during a trial. Named, never implicit (as msw's
 * `onUnhandledRequest`): `error` (the default) fails it with `FAULTLINE_UNHANDLED_REQUEST`,
 * so a tool calling a host the test forgot cannot quietly reach the real network; `warn`
 * prints a warning and lets it through; `bypass` lets it through silently.
 */
export const UNHANDLED_REQUEST_POLICIES = ['error', 'warn', 'bypass'] as const;
export type UnhandledRequestPolicy = (typeof UNHANDLED_REQUEST_POLICIES)[number];

export const UNHANDLED_REQUEST_CODE = 'FAULTLINE_UNHANDLED_REQUEST';

/** The error an unhandled request fails with under the `error` policy; `errno` lets the interceptors pass it through as a network error. */
export function unhandledRequestError(method: string, url: string): Error & { code: string; errno: number } {
  return injected(
    Object.assign(
      new Error(
        `faultline: no route for ${method.toUpperCase()} ${redactText(url)} (unhandled-request policy ` +
          `"error"; use "warn" or "bypass" to let it through)`,
      ),
      { code: UNHANDLED_REQUEST_CODE, errno: 0 },
    ),
  );
}

export const unhandledWarning = (method: string, url: string, policy: UnhandledRequestPolicy): string =>
  `faultline: no route for ${method.toUpperCase()} ${redactText(url)}; passing it through to the ` +
  `network (unhandled-request policy "${policy}")`;

/**
 * The trial's error for a request no route served: the request, what the trial serves where it
 * went, and, for a doubled `/v1` (an SDK given `ctx.model.baseUrl` plus `/v1`), the fix.
 */
export function unservedError(u: {
  readonly method: string;
  readonly url: string;
  readonly served: readonly string[];
  readonly servedHere: boolean;
}): Error & { code: string } {
  const where = u.servedHere
    ? `served at this host: ${u.served.join(', ')}`
    : `nothing is served at this host; served hosts: ${u.served.join(', ')}`;
  const hint = /\/v1\/v1\//.test(u.url)
    ? '; ctx.model.baseUrl already ends in /v1 for openai: give it to the SDK as is'
    : '';
  return Object.assign(
    new Error(
      `${u.method} ${u.url}: no route of this trial serves it, so it was refused (unhandled-request policy "error"); ${where}${hint}`,
    ),
    { code: 'FAULTLINE_UNSERVED_REQUEST' },
  );
}
