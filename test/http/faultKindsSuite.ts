import { describe, expect, it } from 'vitest';
import { MODEL_MISTAKE_KINDS } from '../../src/checks/modelMistakes.js';
import { FAULT_KINDS } from '../../src/faults/fault.js';
import type { ClockRun } from '../../src/core/clock/VirtualClock.js';
import { FAULT_CASES, ORDERS_URL, type FaultCase } from './faultCases.js';
import { expectDuplicateWireEvents, responses, shopTrial, type HttpTrial, type Seen } from './support.js';

type Clock = HttpTrial['clock'];

/** An interception adapter's run (`runWithMsw`, `runWithNock`): the body runs with the plan's faults on the wire. */
export type RunWith = (faults: HttpTrial['faults'], clock: Clock, body: () => Promise<Seen>) => Promise<ClockRun<Seen>>;

/** An HTTP client a test posts the order with, and what it should see of a case (as this adapter shows it). */
export interface WireClient {
  readonly name: string;
  readonly post: (clock: Clock, key?: string) => Promise<Seen>;
  readonly sees: (c: FaultCase) => unknown;
}

/**
 * Every fault kind through one adapter, each client posting the order: what the client sees, the
 * orders the service holds and the response recorded. The adapters differ only in how they run
 * and what their clients see, so both files run this one suite.
 */
export function faultKindsSuite(adapter: string, runWith: RunWith, clients: readonly WireClient[]): void {
  describe(`${adapter} adapter: every fault kind, as a real server would answer it`, () => {
    // The model's own mistakes strike only a model route's answers (refused at load on a tool like
    // this one's): each is covered on the model APIs' shapes (src/model/api/mistakes) and through
    // both interceptions by test/cli/modelMistakes.test.ts.
    it('covers every kind of the fault schema a tool can take', () => {
      const covered = new Set(FAULT_CASES.flatMap((c) => c.plan.map((r) => r.fault.kind)));
      expect(FAULT_KINDS.filter((k) => !covered.has(k) && !MODEL_MISTAKE_KINDS.has(k))).toEqual([]);
    });

    for (const c of FAULT_CASES) {
      describe(c.name, () => {
        for (const client of clients) {
          it(`${client.name} sees it`, async () => {
            const { clock, history, world, faults } = shopTrial(c.plan);
            const run = await runWith(faults, clock, () => client.post(clock, c.key));
            expect(run.kind === 'settled' && run.value).toEqual(client.sees(c));
            expect(Object.keys(world.snapshot().services['orders'] as object)).toHaveLength(c.orders);
            expect(responses(history).at(-1)).toEqual({
              ...c.response,
              method: 'POST',
              url: ORDERS_URL,
              ...(c.key === undefined ? {} : { idempotencyKey: c.key }),
            });
          });
        }
      });
    }

    it('records fault, delivery, effect and response with method, URL and Idempotency-Key', async () => {
      const { clock, history, faults } = shopTrial([
        { match: { tool: 'create_order' }, fault: { kind: 'duplicate', copies: 2 } },
      ]);
      await runWith(faults, clock, () => clients[0]!.post(clock, 'key-9'));
      expectDuplicateWireEvents(history);
    });
  });
}
