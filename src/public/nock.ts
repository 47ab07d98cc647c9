/**
 * `faultline/nock`: a trial's fault plan applied to node:http/https clients through nock.
 * Same engine, routes, model endpoints and virtual timers as `faultline/msw`. `nock` is an
 * optional peer dependency; importing this entry imports nock, which patches node:http at
 * once (nock's own behaviour) — `startNock(...).close()` restores it.
 * Use one of msw and nock per test file (see docs/services-and-agents.md).
 */
export { runWithNock, startNock } from '../faults/http/nock.js';
export * from '../faults/http/index.js';
export * from '../model/api/index.js';
/** A declared service's HTTP routes, to serve it over msw or nock without `runTrial` (give them to `createHttpTrial`'s `services`). */
export { defaultServiceUrl, serviceHttp } from '../faults/http/serviceRoutes.js';
export { installVirtualTimers, runWithVirtualTimers } from '../core/clock/globalTimers.js';
export { modelCallLoads, modelRetries, MODEL_OPERATION_PREFIX } from '../checks/modelRetries.js';

export type { NockAdapterOptions, NockSession } from '../faults/http/nock.js';
export type { VirtualTimers, VirtualTimersOptions } from '../core/clock/globalTimers.js';
export type { ModelCallLoad } from '../checks/modelRetries.js';
