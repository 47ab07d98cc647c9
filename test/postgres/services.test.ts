import { describe, expect, it } from 'vitest';
import { HttpError, VirtualClock } from '../../src/core/index.js';
import { createWorld } from '../../src/world/createWorld.js';
import { deliver, queryStatus, type DeliveryIds } from '../../src/world/deliver.js';
import { createPostgresWorld } from '../../src/world/postgres/createPostgresWorld.js';
import type { World } from '../../src/world/World.js';
import type { WorldConfig } from '../../src/world/WorldConfig.js';
import { skipReason, useTestDatabase } from './postgres.js';

type Step =
  | { readonly tool: string; readonly input: unknown; readonly ids: DeliveryIds }
  | {
      readonly status: string;
      readonly ref: { op: string; idempotencyKey?: string; businessKey?: string; input: unknown };
    };

/** What a caller sees of one step: the answer, or the error's status and body. */
async function play(world: World, step: Step): Promise<unknown> {
  try {
    return 'status' in step
      ? { status: await queryStatus(world, step.status, step.ref, { request: 'status' }) }
      : { ok: await deliver(world, step.tool, step.input, step.ids) };
  } catch (error) {
    return error instanceof HttpError
      ? { error: error.status, body: error.body, message: error.message }
      : { threw: String(error) };
  }
}

const order = (ref: string) => ({ clientReference: ref, item: 'lamp', quantity: 1, amountCents: 4_500 });
const STEPS: Step[] = [
  { tool: 'create_order', input: order('a'), ids: { request: 'r1', idempotencyKey: 'k1' } },
  { tool: 'create_order', input: order('a'), ids: { request: 'r2', idempotencyKey: 'k1' } },
  { tool: 'create_order', input: { ...order('a'), quantity: 2 }, ids: { request: 'r3', idempotencyKey: 'k1' } },
  { tool: 'create_order', input: order('b'), ids: { request: 'r4' } },
  { tool: 'create_order', input: order('b'), ids: { request: 'r5' } },
  { tool: 'find_order_by_reference', input: { clientReference: 'b' }, ids: { request: 'r6' } },
  { tool: 'get_order', input: { orderId: 'ord-9' }, ids: { request: 'r7' } },
  { tool: 'cancel_order', input: { orderId: 'ord-2' }, ids: { request: 'r8' } },
  { tool: 'cancel_order', input: { orderId: 'ord-2' }, ids: { request: 'r9' } },
  {
    tool: 'charge_payment',
    input: { paymentReference: 'p1', orderId: 'ord-2', amountCents: 4_500, currency: 'eur' },
    ids: { request: 'r10' },
  },
  {
    tool: 'charge_payment',
    input: { paymentReference: 'p1', orderId: 'ord-7', amountCents: 4_500, currency: 'eur' },
    ids: { request: 'r11' },
  },
  {
    tool: 'charge_payment',
    input: { paymentReference: 'p2', orderId: 'ord-1', amountCents: 4_500, currency: 'eur' },
    ids: { request: 'r12', idempotencyKey: 'k2' },
  },
  {
    tool: 'charge_payment',
    input: { paymentReference: 'p3', amountCents: 2_000_000, currency: 'usd' },
    ids: { request: 'r13', idempotencyKey: 'k3' },
  },
  {
    tool: 'charge_payment',
    input: { paymentReference: 'p3', amountCents: 2_000_000, currency: 'usd' },
    ids: { request: 'r14', idempotencyKey: 'k3' },
  },
  { tool: 'cancel_order', input: { orderId: 'ord-1' }, ids: { request: 'r15' } },
  {
    tool: 'refund_payment',
    input: { paymentId: 'pay-1', amountCents: 1_000 },
    ids: { request: 'r16', idempotencyKey: 'k4' },
  },
  { tool: 'refund_payment', input: { paymentId: 'pay-1', amountCents: 9_000 }, ids: { request: 'r17' } },
  { tool: 'refund_payment', input: { paymentId: 'pay-1' }, ids: { request: 'r18' } },
  { tool: 'refund_payment', input: { paymentId: 'pay-1' }, ids: { request: 'r19' } },
  { tool: 'get_payment', input: { paymentId: 'pay-1' }, ids: { request: 'r20' } },
  { status: 'create_order', ref: { op: 'o1', idempotencyKey: 'k1', input: order('a') } },
  { status: 'create_order', ref: { op: 'o2', input: order('b') } },
  { status: 'create_order', ref: { op: 'o3', businessKey: 'zzz', input: {} } },
  { status: 'charge_payment', ref: { op: 'o4', input: { paymentReference: 'p3' } } },
  { status: 'charge_payment', ref: { op: 'o5', idempotencyKey: 'k3', input: {} } },
  { status: 'cancel_order', ref: { op: 'o6', input: { orderId: 'ord-2' } } },
  { status: 'refund_payment', ref: { op: 'o7', idempotencyKey: 'k4', input: {} } },
  { status: 'get_order', ref: { op: 'o8', input: {} } },
];

/** What a world says of each tool, beyond its schema: the fields an agent and the checkers read. */
const toolFacts = (world: World) =>
  world.tools.map((t) => [
    t.name,
    t.description,
    t.risk,
    t.honoursIdempotencyKeys,
    t.canQueryStatus,
    t.businessKeyField,
  ]);

describe.skipIf(skipReason !== undefined)('orders and payments in Postgres', () => {
  const database = useTestDatabase(5);

  for (const config of [
    { orders: {}, payments: { maxAmountCents: 1_000_000 } },
    { orders: { idempotency: false }, payments: { idempotency: false } },
  ] satisfies WorldConfig[]) {
    it(`answer every tool as the in-memory services do (${JSON.stringify(config)})`, async () => {
      const db = database();
      const memory = createWorld(new VirtualClock(1_000), config);
      const postgres = await createPostgresWorld(db.pool, new VirtualClock(1_000), config, undefined, {
        id: `parity-${JSON.stringify(config)}`,
      });
      expect(toolFacts(postgres)).toEqual(toolFacts(memory));
      const seen: { memory: unknown; postgres: unknown }[] = [];
      for (const step of STEPS) seen.push({ memory: await play(memory, step), postgres: await play(postgres, step) });
      for (const [i, s] of seen.entries()) expect(s.postgres, `step ${i + 1}`).toEqual(s.memory);
      // Not vacuous: successes, business errors and status answers all occur.
      expect(seen.filter((s) => 'ok' in (s.memory as object)).length).toBeGreaterThan(5);
      expect(
        new Set(seen.flatMap((s) => ('error' in (s.memory as object) ? [(s.memory as { error: number }).error] : []))),
      ).toEqual(new Set([404, 409, 422, 405]));
      expect(await postgres.snapshotAsync()).toEqual(memory.snapshot());
    });
  }

  it('refuses a synchronous snapshot and effects from a service kept in memory', async () => {
    const db = database();
    const world = await createPostgresWorld(db.pool, new VirtualClock(0), {}, ['orders', 'email'], { id: 'limits' });
    expect(() => world.snapshot()).toThrow(expect.objectContaining({ code: 'FAULTLINE_INTERNAL' }));
    const sent = await deliver(
      world,
      'send_email',
      { messageId: 'm1', to: 'a@example.com', subject: 's', body: 'b' },
      { request: 'r' },
    ).catch((e: unknown) => e);
    expect(sent).toMatchObject({
      message: expect.stringContaining('on the Postgres backend only orders and payments commit effects'),
    });
    expect((await world.snapshotAsync()).ledger).toEqual([]);
  });
});
