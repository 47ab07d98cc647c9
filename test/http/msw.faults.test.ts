import { describe, expect, it } from 'vitest';
import { FAULT_KINDS } from '../../src/faults/fault.js';
import { runWithMsw } from '../../src/faults/http/msw.js';
import { FAULT_CASES, ORDERS_URL } from './faultCases.js';
import { expectDuplicateWireEvents, postWithAxios, postWithFetch, responses, shopTrial } from './support.js';

describe('msw adapter: every fault kind, as a real server would answer it', () => {
  it('covers every kind of the fault schema', () => {
    const covered = new Set(FAULT_CASES.flatMap((c) => c.plan.map((r) => r.fault.kind)));
    expect(FAULT_KINDS.filter((k) => !covered.has(k))).toEqual([]);
  });

  for (const c of FAULT_CASES) {
    describe(c.name, () => {
      it('global fetch sees it', async () => {
        const { clock, history, world, faults } = shopTrial(c.plan);
        const run = await runWithMsw(faults, clock, () => postWithFetch(clock, c.key));
        expect(run.kind === 'settled' && run.value).toEqual(c.fetch);
        expect(world.snapshot().services['orders']).toSatisfy(
          (orders: object) => Object.keys(orders).length === c.orders,
        );
        expect(responses(history).at(-1)).toEqual({
          ...c.response,
          method: 'POST',
          url: ORDERS_URL,
          ...(c.key === undefined ? {} : { idempotencyKey: c.key }),
        });
      });

      it('axios (node:http) sees it', async () => {
        const { clock, history, world, faults } = shopTrial(c.plan);
        const run = await runWithMsw(faults, clock, () => postWithAxios(clock, c.key));
        expect(run.kind === 'settled' && run.value).toEqual(c.axios);
        expect(Object.keys(world.snapshot().services['orders'] as object)).toHaveLength(c.orders);
        expect(responses(history).at(-1)).toEqual({
          ...c.response,
          method: 'POST',
          url: ORDERS_URL,
          ...(c.key === undefined ? {} : { idempotencyKey: c.key }),
        });
      });
    });
  }

  it('records fault, delivery, effect and response with method, URL and Idempotency-Key', async () => {
    const { clock, history, faults } = shopTrial([
      { match: { tool: 'create_order' }, fault: { kind: 'duplicate', copies: 2 } },
    ]);
    await runWithMsw(faults, clock, () => postWithFetch(clock, 'key-9'));
    expectDuplicateWireEvents(history);
  });
});
