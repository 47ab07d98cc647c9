/**
 * `faultline/msw`: a trial's fault plan applied to real HTTP traffic through msw, for global
 * `fetch` and node:http/https clients (axios, SDKs). Also the model API endpoints (OpenAI,
 * Anthropic) answered by a scripted model, so an agent can run on the official SDKs while
 * its model calls fail, and virtual global timers so a client's 30-second timeout costs
 * nothing. `msw` is an optional peer dependency.
 *
 * @example
 * const faults = new HttpFaults({ services: [{ baseUrl: 'https://api.shop.test', routes: ordersRoutes(world) }],
 * plan, clock, rng, history, world });
 * const run = await runWithMsw(faults, clock, () => createOrder(input));
 */
export { mswHandlers, runWithMsw, startMsw } from '../faults/http/msw.js';
export * from '../faults/http/index.js';
export * from '../model/api/index.js';
/** A declared service's HTTP routes, to serve it over msw or nock without `runTrial` (give them to `createHttpTrial`'s `services`). */
export { defaultServiceUrl, serviceHttp } from '../faults/http/serviceRoutes.js';
export { installVirtualTimers, runWithVirtualTimers } from '../core/clock/globalTimers.js';
export { modelCallLoads, modelRetries, MODEL_OPERATION_PREFIX } from '../checks/modelRetries.js';

export type { MswAdapterOptions, MswSession } from '../faults/http/msw.js';
export type { VirtualTimers, VirtualTimersOptions } from '../core/clock/globalTimers.js';
export type { ModelCallLoad } from '../checks/modelRetries.js';
