import { expect, it } from 'vitest';
import { runWithMsw } from '../../src/faults/http/msw.js';
import { runWithNock } from '../../src/faults/http/nock.js';
import { always, postWithAxios, postWithFetch, shopTrial } from './support.js';

// Both adapters sit on one @mswjs/interceptors. In one file they work in turn, because each
// trial installs its interceptors and removes them all before the next one starts.
it('msw, then nock, then msw again in one file: each trial faults, none inherits the other’s interceptors', async () => {
  const seen: unknown[] = [];
  for (const [adapter, run] of [
    ['msw', runWithMsw],
    ['nock', runWithNock],
    ['msw', runWithMsw],
  ] as const) {
    const t = shopTrial(always({ kind: 'unavailable', status: 503 }));
    const result = await run(t.faults, t.clock, async () => [
      adapter,
      await postWithAxios(t.clock),
      adapter === 'msw' ? await postWithFetch(t.clock) : null,
    ]);
    seen.push(
      result.kind === 'settled'
        ? result.value.map((v) => (v !== null && typeof v === 'object' && 'status' in v ? v.status : v))
        : result.kind,
    );
  }
  expect(seen).toEqual([
    ['msw', 503, 503],
    ['nock', 503, null],
    ['msw', 503, 503],
  ]);
});
