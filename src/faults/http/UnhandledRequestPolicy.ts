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
  return injected(Object.assign(
    new Error(`faultline: no route for ${method.toUpperCase()} ${redactText(url)} (unhandled-request policy "error"; use "warn" or "bypass" to let it through)`),
    { code: UNHANDLED_REQUEST_CODE, errno: 0 },
  ));
}

export const unhandledWarning = (method: string, url: string, policy: UnhandledRequestPolicy): string =>
  `faultline: no route for ${method.toUpperCase()} ${redactText(url)}; passing it through to the network (unhandled-request policy "${policy}")`;
