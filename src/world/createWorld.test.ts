import { describe, expect, it } from 'vitest';
import { FaultlineError, VirtualClock } from '../core/index.js';
import { BUILTIN_SERVICES, createWorld } from './createWorld.js';
import { deliver } from './deliver.js';
import type { World } from './World.js';
import type { WorldConfig } from './WorldConfig.js';

const names = (w: World): string[] => w.services.map((s) => s.name);

describe('createWorld', () => {
  it('builds all five services for an empty config, else those configured or named', () => {
    expect(BUILTIN_SERVICES).toEqual(['orders', 'payments', 'email', 'calendar', 'deploy']);
    expect(names(createWorld(new VirtualClock(), {}))).toEqual([...BUILTIN_SERVICES]);
    expect(names(createWorld(new VirtualClock(), { deploy: {}, orders: { processingMs: 5 } }))).toEqual([
      'orders',
      'deploy',
    ]);
    expect(names(createWorld(new VirtualClock(), { orders: {} }, ['email', 'orders']))).toEqual(['email', 'orders']);
  });

  it("writes a snapshot's keys as ledger, services, hash (reports and hashes read its JSON text, so the order is part of it)", () => {
    expect(Object.keys(createWorld(new VirtualClock(), {}).snapshot())).toEqual(['ledger', 'services', 'hash']);
  });

  it('passes each service its config', () => {
    const w = createWorld(new VirtualClock(), { orders: { idempotency: false }, payments: {} });
    expect(w.tools.filter((t) => t.risk !== 'read').map((t) => [t.name, t.honoursIdempotencyKeys])).toEqual([
      ['create_order', false],
      ['cancel_order', false],
      ['charge_payment', true],
      ['refund_payment', true],
    ]);
  });

  it("lists services and tools anew after each add, frozen, so no caller can change the next one's list", () => {
    const clock = new VirtualClock();
    const w = createWorld(clock, {}, ['orders']);
    const before = w.tools;
    expect(w.tools).toBe(before);
    expect(Object.isFrozen(before) && Object.isFrozen(w.services)).toBe(true);
    w.add(createWorld(clock, {}, ['email']).service('email'));
    expect(names(w)).toEqual(['orders', 'email']);
    expect(w.tools.map((t) => t.name)).toEqual([...before.map((t) => t.name), 'send_email', 'list_outbox']);
  });

  it('refuses an unknown service and an invalid config with coded errors', () => {
    expect(() => createWorld(new VirtualClock(), {}, ['orders', 'crm'])).toThrow(
      expect.objectContaining({ code: 'FAULTLINE_UNKNOWN_SERVICE' }),
    );
    const bad = { orders: { retries: 3 } } as unknown as WorldConfig;
    expect(() => createWorld(new VirtualClock(), bad)).toThrow(FaultlineError);
    expect(() => createWorld(new VirtualClock(), bad)).toThrow(
      expect.objectContaining({ code: 'FAULTLINE_CONFIG_INVALID' }),
    );
    const badOutcome = { deploy: { outcome: 'exploded' } } as unknown as WorldConfig;
    expect(() => createWorld(new VirtualClock(), badOutcome)).toThrow(
      expect.objectContaining({ code: 'FAULTLINE_CONFIG_INVALID' }),
    );
  });
});

/** The same little story, optionally with one extra duplicate delivery. */
async function story(duplicate: boolean): Promise<World> {
  const clock = new VirtualClock(1_700_000_000_000);
  const world = createWorld(clock, {});
  expect(
    await clock.run(async () => {
      await deliver(
        world,
        'create_order',
        { clientReference: 'o-1', item: 'lamp', quantity: 1, amountCents: 4_200 },
        { request: 'r1' },
      );
      if (duplicate)
        await deliver(
          world,
          'create_order',
          { clientReference: 'o-1', item: 'lamp', quantity: 1, amountCents: 4_200 },
          { request: 'r1' },
        );
      await clock.sleep(250);
      await deliver(
        world,
        'charge_payment',
        { paymentReference: 'p-1', orderId: 'ord-1', amountCents: 4_200, currency: 'USD' },
        { request: 'r2', idempotencyKey: 'k2' },
      );
      await deliver(
        world,
        'send_email',
        { messageId: 'm-1', to: 'a@b.example', subject: 'Receipt', body: 'Thanks' },
        { request: 'r3' },
      );
      await deliver(
        world,
        'start_deploy',
        { clientReference: 'd-1', service: 'shop', version: '2' },
        { request: 'r4' },
      );
    }),
  ).toMatchObject({ kind: 'settled' });
  return world;
}

describe('World snapshot', () => {
  it('hashes the same actions to the same hash, and different ones to a different hash', async () => {
    const a = (await story(false)).snapshot();
    const b = (await story(false)).snapshot();
    const c = (await story(true)).snapshot();
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toEqual(a);
    expect(c.hash).not.toBe(a.hash);
    expect(c.ledger.filter((e) => e.effect === 'order.created')).toHaveLength(2);
  });

  it('holds plain state per service, keyed by id', async () => {
    const snap = (await story(false)).snapshot();
    expect(snap.services).toEqual({
      orders: { 'ord-1': { clientReference: 'o-1', item: 'lamp', quantity: 1, amountCents: 4_200, status: 'paid' } },
      payments: {
        'pay-1': {
          paymentReference: 'p-1',
          orderId: 'ord-1',
          amountCents: 4_200,
          currency: 'USD',
          refundedCents: 0,
          status: 'charged',
        },
      },
      email: {
        'msg-1': { messageId: 'm-1', to: 'a@b.example', subject: 'Receipt', body: 'Thanks', sentAt: 1_700_000_000_250 },
      },
      calendar: {},
      deploy: {
        'dep-1': {
          clientReference: 'd-1',
          service: 'shop',
          version: '2',
          acceptedAt: 1_700_000_000_250,
          state: 'accepted',
        },
      },
    });
    expect(snap.ledger.map((e) => [e.seq, e.effect, e.key, e.request])).toEqual([
      [0, 'order.created', 'o-1', 'r1'],
      [1, 'payment.charged', 'p-1', 'r2'],
      [2, 'email.sent', 'm-1', 'r3'],
      [3, 'deploy.started', 'd-1', 'r4'],
    ]);
  });
});
