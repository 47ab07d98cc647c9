import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FaultlineError, HttpError, VirtualClock } from '../../core/index.js';
import { createWorld } from '../createWorld.js';
import { deliver, findTool, queryStatus } from '../deliver.js';
import { defineService, isServiceDefinition } from './defineService.js';
import { ServiceError } from './ServiceError.js';

interface Ticket {
  readonly requestId: string;
  readonly subject: string;
  readonly status: 'open' | 'closed';
}

/** The ticket with this id, or the service's 404 for it. */
function ticketIn(state: Readonly<Record<string, Ticket>>, ticketId: string): Ticket {
  const t = state[ticketId];
  if (!t)
    throw new ServiceError(404, { code: 'ticket_not_found', message: `no ticket ${ticketId}`, param: 'ticketId' });
  return t;
}

const helpdesk = defineService({
  name: 'helpdesk',
  description: 'A helpdesk API',
  options: z.object({ maxOpen: z.number().int().positive().default(2) }),
  state: (): Record<string, Ticket> => ({}),
  tools: {
    create_ticket: {
      description: (o) => `Open a ticket (at most ${o.maxOpen} open). requestId is your business id for it.`,
      risk: 'write',
      input: z.object({ requestId: z.string(), subject: z.string().min(1) }).strict(),
      businessKey: 'requestId',
      check(input) {
        if (input.subject === 'spam')
          throw new ServiceError(422, { code: 'spam', message: 'spam is refused', param: 'subject' });
      },
      run(input, ctx) {
        if (Object.values(ctx.state).filter((t) => t.status === 'open').length >= ctx.options.maxOpen) {
          throw new ServiceError(409, { code: 'too_many_open', message: 'too many open tickets' });
        }
        const ticketId = ctx.id('tkt');
        ctx.state[ticketId] = { ...input, status: 'open' };
        ctx.effect('ticket.created', { key: input.requestId, data: { ticketId } });
        return { ticketId, status: 'open' as const };
      },
    },
    close_ticket: {
      description: 'Close a ticket.',
      risk: 'idempotent-write',
      idempotency: false,
      input: z.object({ ticketId: z.string() }).strict(),
      businessKey: 'ticketId',
      run({ ticketId }, ctx) {
        const t = ticketIn(ctx.state, ticketId);
        ctx.state[ticketId] = { ...t, status: 'closed' };
        ctx.effect('ticket.closed', { key: ticketId });
        return { ticketId, status: 'closed' };
      },
    },
    get_ticket: {
      description: 'Get one ticket.',
      risk: 'read',
      input: z.object({ ticketId: z.string() }).strict(),
      output: z.object({ ticketId: z.string(), subject: z.string(), status: z.enum(['open', 'closed']) }),
      run({ ticketId }, ctx) {
        const t = ticketIn(ctx.state, ticketId);
        // The request id is left in on purpose for one ticket: the output schema is strict about shape, not extra keys.
        return { ticketId, subject: t.subject, status: t.status === 'open' ? t.status : ('gone' as never) };
      },
    },
  },
});

const ticket = { requestId: 'req-a', subject: 'printer on fire' };

function world(options: Record<string, unknown> = {}) {
  const clock = new VirtualClock(1_000);
  return { clock, world: createWorld(clock, { helpdesk: options }, [helpdesk, 'orders']) };
}

describe('defineService', () => {
  it('declares tools with the contract the caller side sees', () => {
    const { world: w } = world({ maxOpen: 5 });
    expect(isServiceDefinition(helpdesk)).toBe(true);
    expect(
      w.tools.map((t) => [t.name, t.risk, t.honoursIdempotencyKeys, t.canQueryStatus, t.businessKeyField]),
    ).toEqual([
      ['create_ticket', 'write', true, true, 'requestId'],
      ['close_ticket', 'idempotent-write', false, true, 'ticketId'],
      ['get_ticket', 'read', false, false, undefined],
      ['create_order', 'write', true, true, 'clientReference'],
      ['get_order', 'read', false, false, undefined],
      ['find_order_by_reference', 'read', false, false, undefined],
      ['cancel_order', 'idempotent-write', true, true, 'orderId'],
    ]);
    expect(findTool(w, 'create_ticket').description).toBe(
      'Open a ticket (at most 5 open). requestId is your business id for it.',
    );
    expect(world({ idempotency: false }).world.tools[0]?.honoursIdempotencyKeys).toBe(false);
  });

  it('runs business logic against fresh state per world, committing effects to the shared ledger', async () => {
    const a = world();
    expect(await deliver(a.world, 'create_ticket', ticket, { request: 'r1', idempotencyKey: 'k1' })).toEqual({
      ticketId: 'tkt-1',
      status: 'open',
    });
    expect(a.world.ledger.effects).toEqual([
      {
        seq: 0,
        at: 1_000,
        service: 'helpdesk',
        effect: 'ticket.created',
        key: 'req-a',
        request: 'r1',
        idempotencyKey: 'k1',
        data: { ticketId: 'tkt-1' },
      },
    ]);
    expect(a.world.snapshot().services['helpdesk']).toEqual({ 'tkt-1': { ...ticket, status: 'open' } });
    // A second world starts from the declared state, untouched by the first.
    expect(world().world.snapshot().services['helpdesk']).toEqual({});
  });

  it("honours idempotency keys with the built-ins' R24 semantics", async () => {
    const { world: w } = world();
    const first = await deliver(w, 'create_ticket', ticket, { request: 'r1', idempotencyKey: 'k1' });
    expect(await deliver(w, 'create_ticket', ticket, { request: 'r2', idempotencyKey: 'k1' })).toEqual(first);
    await expect(
      deliver(w, 'create_ticket', { ...ticket, subject: 'other' }, { request: 'r3', idempotencyKey: 'k1' }),
    ).rejects.toMatchObject({
      status: 422,
      body: { error: { type: 'idempotency_error', code: 'key_reused_with_different_parameters' } },
    });
    expect(w.ledger.length).toBe(1);
    // Off for one tool: two deliveries with one key close twice.
    await deliver(w, 'close_ticket', { ticketId: 'tkt-1' }, { request: 'r4', idempotencyKey: 'k2' });
    await deliver(w, 'close_ticket', { ticketId: 'tkt-1' }, { request: 'r5', idempotencyKey: 'k2' });
    expect(w.ledger.effects.map((e) => e.effect)).toEqual(['ticket.created', 'ticket.closed', 'ticket.closed']);
  });

  it('refuses a concurrent duplicate with 409 while processing, and replays a first error', async () => {
    const { clock, world: w } = world({ processingMs: 500, maxOpen: 1 });
    const run = await clock.run(async () => {
      const one = deliver(w, 'create_ticket', ticket, { request: 'r1', idempotencyKey: 'k1' });
      const two = deliver(w, 'create_ticket', ticket, { request: 'r2', idempotencyKey: 'k1' }).catch((e: unknown) => e);
      const pending = await queryStatus(w, 'create_ticket', { op: 'o', input: ticket }, { request: 's1' });
      return { one: await one, two: await two, pending };
    });
    expect(run.kind).toBe('settled');
    if (run.kind !== 'settled') return;
    expect(run.value.two).toMatchObject({ status: 409, body: { error: { code: 'concurrent_request' } } });
    expect(run.value.pending).toEqual({ state: 'pending' });
    // The service is full now: the first answer for k2 is a 409, and the same key gets it again.
    const full = await clock.run(async () => [
      await deliver(
        w,
        'create_ticket',
        { requestId: 'req-b', subject: 's' },
        { request: 'r3', idempotencyKey: 'k2' },
      ).catch((e: unknown) => e),
      await deliver(
        w,
        'create_ticket',
        { requestId: 'req-b', subject: 's' },
        { request: 'r4', idempotencyKey: 'k2' },
      ).catch((e: unknown) => e),
    ]);
    expect(full.kind === 'settled' && full.value.map((e) => (e as HttpError).status)).toEqual([409, 409]);
    expect(full.kind === 'settled' && full.value[0]).toBe(full.kind === 'settled' && full.value[1]);
  });

  it('answers status queries by idempotency key, then by business key, without a status function', async () => {
    const { world: w } = world();
    const created = await deliver(w, 'create_ticket', ticket, { request: 'r1', idempotencyKey: 'k1' });
    expect(
      await queryStatus(w, 'create_ticket', { op: 'o', idempotencyKey: 'k1', input: {} }, { request: 's1' }),
    ).toEqual({ state: 'succeeded', value: created });
    expect(await queryStatus(w, 'create_ticket', { op: 'o', input: ticket }, { request: 's2' })).toEqual({
      state: 'succeeded',
      value: created,
    });
    expect(
      await queryStatus(w, 'create_ticket', { op: 'o', input: { requestId: 'req-x' } }, { request: 's3' }),
    ).toEqual({ state: 'not_found' });
    await deliver(w, 'create_ticket', { requestId: 'req-s', subject: 'spam' }, { request: 'r2' }).catch(
      () => undefined,
    );
    expect(
      await queryStatus(w, 'create_ticket', { op: 'o', input: { requestId: 'req-s' } }, { request: 's4' }),
    ).toEqual({ state: 'failed', status: 422, message: 'spam is refused' });
    await expect(queryStatus(w, 'get_ticket', { op: 'o', input: {} }, { request: 's5' })).rejects.toMatchObject({
      status: 405,
    });
  });

  it("throws business errors shaped like the built-ins'", async () => {
    const { world: w } = world();
    const missing = await deliver(w, 'get_ticket', { ticketId: 'tkt-9' }, { request: 'r1' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(HttpError);
    expect(missing).toMatchObject({
      status: 404,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'ticket_not_found',
          param: 'ticketId',
          message: 'no ticket tkt-9',
        },
      },
    });
  });

  it('answers a result its output schema refuses with a 500 that names the tool', async () => {
    const { world: w } = world();
    await deliver(w, 'create_ticket', ticket, { request: 'r1' });
    await deliver(w, 'close_ticket', { ticketId: 'tkt-1' }, { request: 'r2' });
    await expect(deliver(w, 'get_ticket', { ticketId: 'tkt-1' }, { request: 'r3' })).rejects.toMatchObject({
      status: 500,
      message: expect.stringContaining(
        'service "helpdesk" tool "get_ticket" returned a result its output schema refuses: status',
      ),
    });
  });

  it("lets a tool read and change a peer service's state", async () => {
    const shop = defineService({
      name: 'shop',
      state: {},
      tools: {
        ship: {
          description: 'Mark an order shipped',
          risk: 'write',
          input: z.object({ orderId: z.string() }),
          run({ orderId }, ctx) {
            const orders = ctx.peer<Record<string, { status: string }>>('orders');
            const order = orders?.[orderId];
            if (!order) throw new ServiceError(404, { code: 'no_order', message: orderId });
            orders[orderId] = { ...order, status: 'shipped' };
            return { ok: true };
          },
        },
      },
    });
    const clock = new VirtualClock(0);
    const w = createWorld(clock, {}, ['orders', shop]);
    await deliver(
      w,
      'create_order',
      { clientReference: 'c', item: 'i', quantity: 1, amountCents: 1 },
      { request: 'r1' },
    );
    await deliver(w, 'ship', { orderId: 'ord-1' }, { request: 'r2' });
    expect(w.snapshot().services['orders']).toMatchObject({ 'ord-1': { status: 'shipped' } });
  });

  it("gives each delivery a context with the same keys in the same order, its clock's helpers shared and the rest its own", async () => {
    const seen: {
      keys: string[];
      peer: unknown;
      travel: unknown;
      now: unknown;
      effect: unknown;
      arrived: unknown;
      orders: unknown;
    }[] = [];
    const probe = defineService({
      name: 'probe',
      state: {},
      tools: {
        look: {
          description: 'Look at the context',
          risk: 'write',
          input: z.object({}),
          async run(_input, ctx) {
            const arrived = ctx.travel('response');
            await arrived;
            seen.push({
              keys: Object.keys(ctx),
              peer: ctx.peer,
              travel: ctx.travel,
              now: ctx.now,
              effect: ctx.effect,
              arrived,
              orders: ctx.peer('orders'),
            });
            return {};
          },
        },
      },
    });
    const clock = new VirtualClock(0);
    const w = createWorld(clock, {}, ['orders', probe]);
    await deliver(w, 'look', {}, { request: 'r1' });
    await deliver(w, 'look', {}, { request: 'r2' });
    const [a, b] = seen;
    expect(a?.keys).toEqual([
      'state',
      'options',
      'service',
      'clock',
      'now',
      'id',
      'effect',
      'peer',
      'request',
      'idempotencyKey',
      'command',
      'travel',
    ]);
    expect(a?.orders).toBe(w.services.find((s) => s.name === 'orders')?.state);
    expect([b?.now, b?.arrived]).toEqual([a?.now, a?.arrived]);
    // `effect` names its delivery's request: one per delivery; `peer` and `travel` too, as they always were (a
    // service can tell them apart).
    expect(b?.effect).not.toBe(a?.effect);
    expect(b?.peer).not.toBe(a?.peer);
    expect(b?.travel).not.toBe(a?.travel);
    // Shared or not, each helper keeps the name and length the per-delivery function had (a service can read both).
    const shape = (f: unknown): [string, number] => [(f as { name: string }).name, (f as { length: number }).length];
    expect([shape(a?.peer), shape(a?.travel), shape(a?.effect)]).toEqual([
      ['peer', 1],
      ['travel', 1],
      ['effect', 2],
    ]);
  });

  it('refuses options it does not know, naming world.<service>.<field>', () => {
    expect(() => world({ maxOpen: 0, retries: 3 })).toThrow(FaultlineError);
    try {
      world({ maxOpen: 0, retries: 3 });
    } catch (e) {
      expect((e as FaultlineError).details).toEqual({
        issues: [
          'world.helpdesk.retries: unknown option (known: idempotency, retentionMs, processingMs, capacity, maxOpen)',
          'world.helpdesk.maxOpen: Too small: expected number to be >0',
        ],
      });
    }
  });

  it.each([
    [
      'a missing name',
      { state: {}, tools: {} },
      ['name: expected a lowercase slug such as "helpdesk", got nothing', 'tools: expected at least one tool'],
    ],
    ['no tools object', { name: 'x', state: {} }, ['tools: expected an object of tool definitions keyed by tool name']],
    [
      'a tool without a schema',
      { name: 'x', state: {}, tools: { t: { description: 'd', risk: 'read', run: (): number => 1 } } },
      ["tools.t.input: expected a zod 4 schema for the tool's input (z.object({ ... }).strict())"],
    ],
    [
      'a bad risk',
      {
        name: 'x',
        state: {},
        tools: { t: { description: 'd', risk: 'delete', input: z.object({}), run: (): number => 1 } },
      },
      ['tools.t.risk: expected one of "read", "idempotent-write", "write" (R4), got "delete"'],
    ],
    [
      'a Map in the state',
      { name: 'x', state: { tickets: new Map() }, tools: {} },
      [
        'state.tickets: a Map: expected JSON data (objects, arrays, strings, finite numbers, booleans, null)',
        'tools: expected at least one tool',
      ],
    ],
    [
      'a function in the state',
      { name: 'x', state: { f: () => 1 }, tools: {} },
      [
        'state.f: a function: expected JSON data (objects, arrays, strings, finite numbers, booleans, null)',
        'tools: expected at least one tool',
      ],
    ],
    [
      'NaN in the state',
      { name: 'x', state: [1, Number.NaN], tools: {} },
      [
        'state[1]: NaN (JSON has no such number): expected JSON data (objects, arrays, strings, finite numbers, booleans, null)',
        'tools: expected at least one tool',
      ],
    ],
    [
      'a common option redeclared',
      { name: 'x', state: {}, options: z.object({ idempotency: z.boolean() }), tools: {} },
      ['options: idempotency is common to every service; leave it out', 'tools: expected at least one tool'],
    ],
    [
      'a status on a read',
      {
        name: 'x',
        state: {},
        tools: { t: { description: 'd', risk: 'read', input: z.object({}), run: (): number => 1, status: () => 1 } },
      },
      ['tools.t: a read has no idempotency or status query; declare risk "write" or "idempotent-write"'],
    ],
  ])('refuses %s, naming the path', (_, input, issues) => {
    try {
      defineService(input as never);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(FaultlineError);
      expect((e as FaultlineError).code).toBe('FAULTLINE_SERVICE_INVALID');
      expect((e as FaultlineError).details).toEqual({ issues });
    }
  });

  it('parses one options object once, and gives every world its own copy of the result', () => {
    let parses = 0;
    const counted = defineService({
      name: 'counted',
      options: z.object({ limits: z.object({ max: z.number().transform((n) => (parses++, n)) }) }),
      state: { items: [] as number[] },
      tools: { t: { description: 'd', risk: 'read', input: z.object({}), run: () => 1 } },
    });
    const config = { counted: { limits: { max: 3 }, processingMs: 5 } };
    const first = createWorld(new VirtualClock(0), config, [counted]).service('counted') as unknown as {
      options: { limits: { max: number } };
      state: { items: number[] };
    };
    first.options.limits.max = 99;
    first.state.items.push(1);
    const second = createWorld(new VirtualClock(0), config, [counted]).service('counted') as unknown as typeof first;
    expect(parses).toBe(1);
    expect(second.options).toEqual({ limits: { max: 3 }, processingMs: 5 });
    expect(second.state).toEqual({ items: [] });
    createWorld(new VirtualClock(0), { counted: { limits: { max: 3 }, processingMs: 5 } }, [counted]);
    expect(parses).toBe(2);
    // A refusal is never kept: the same bad object is refused, with the same message, every time.
    const bad = { counted: { limits: { max: 'x' } } } as never;
    expect(() => createWorld(new VirtualClock(0), bad, [counted])).toThrow('world.counted.limits.max');
    expect(() => createWorld(new VirtualClock(0), bad, [counted])).toThrow('world.counted.limits.max');
  });

  it('parses options whose parse is not JSON data afresh for every world', () => {
    let parses = 0;
    const dated = defineService({
      name: 'dated',
      options: z.object({ since: z.number().transform((n) => (parses++, new Date(n))) }),
      state: {},
      tools: { t: { description: 'd', risk: 'read', input: z.object({}), run: () => 1 } },
    });
    const config = { dated: { since: 5 } };
    const a = createWorld(new VirtualClock(0), config, [dated]).service('dated') as unknown as {
      options: { since: Date };
    };
    const b = createWorld(new VirtualClock(0), config, [dated]).service('dated') as unknown as {
      options: { since: Date };
    };
    expect(parses).toBe(2);
    expect(b.options.since).toEqual(new Date(5));
    expect(b.options.since).not.toBe(a.options.since);
  });

  it('refuses a state function that returns something other than JSON when a world is built', () => {
    const odd = defineService({
      name: 'odd',
      state: () => ({ at: new Date(0) }),
      tools: { t: { description: 'd', risk: 'read', input: z.object({}), run: () => 1 } },
    });
    expect(() => createWorld(new VirtualClock(0), {}, [odd])).toThrow(
      'service "odd": the state is not JSON data: state.at: a Date',
    );
  });
});

describe('capacity, an option of every service', () => {
  it('applies to a user-declared service: one slot, no queue, the second concurrent delivery is refused with 503', async () => {
    const { z } = await import('zod');
    const { defineService } = await import('./defineService.js');
    const { VirtualClock, HttpError } = await import('../../core/index.js');
    const { World } = await import('../World.js');
    const { deliver } = await import('../deliver.js');
    const slow = defineService({
      name: 'slow',
      state: {},
      tools: {
        work: {
          description: 'Works 100 ms.',
          risk: 'read',
          input: z.object({}).strict(),
          run: async (_i, ctx) => {
            await ctx.clock.sleep(100);
            return 'done';
          },
        },
      },
    });
    const clock = new VirtualClock(0);
    const world = new World(clock).add(
      slow.instantiate(clock, { capacity: { maxConcurrent: 1, overloadRetryAfterMs: 2_000 } }),
    );
    const run = await clock.run(() =>
      Promise.all([1, 2].map((n) => deliver(world, 'work', {}, { request: `r${n}` }).catch((e: unknown) => e))),
    );
    expect(run.kind === 'settled' && run.value[0]).toBe('done');
    const refused = run.kind === 'settled' ? run.value[1] : undefined;
    expect(refused instanceof HttpError && [refused.status, refused.headers['retry-after']]).toEqual([503, '2']);
    expect(() => slow.instantiate(clock, { capacity: { maxConcurrent: 0 } })).toThrow(
      /world\.slow\.capacity\.maxConcurrent/,
    );
  });
});
