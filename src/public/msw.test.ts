import { describe, expect, it } from 'vitest';

describe('faultline/msw', () => {
  it('exports the HTTP API, and importing it installs nothing', async () => {
    const before = { fetch: globalThis.fetch, setTimeout: globalThis.setTimeout };
    const api = await import('./msw.js');
    const expected = [
      'HttpFaults',
      'createHttpTrial',
      'startMsw',
      'runWithMsw',
      'mswHandlers',
      'ordersRoutes',
      'toolRoutes',
      'openaiService',
      'anthropicService',
      'installVirtualTimers',
      'runWithVirtualTimers',
      'modelRetries',
      'modelCallLoads',
      'interceptableFetch',
      'UNHANDLED_REQUEST_POLICIES',
    ];
    expect(expected.filter((name) => !(name in api))).toEqual([]);
    expect({ fetch: globalThis.fetch, setTimeout: globalThis.setTimeout }).toEqual(before);
  });
});
