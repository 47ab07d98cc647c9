/**
 * Trials through a user's own services that touch every path a delivery can take inside a
 * service instance: the capacity door (a rate limit, slots and a queue), a check on arrival that
 * refuses, processing time, an output schema that refuses a result, status queries by business
 * key while a write is in flight and after it failed, stale reads, `ctx.peer`, `ctx.travel`
 * with and without a network, and concurrent chains of reads and writes started together, alone
 * and as a crowd. Written against the public API it is handed, so the same cases run from the
 * sources (the golden test) and from any built `dist/` (to take the hashes on a commit).
 */
import type * as Public from '../../src/public/index.js';

export type Api = Pick<typeof Public, 'defineScenario' | 'defineService' | 'defineAgent' | 'ServiceError' | 'z'>;
type ScenarioInput = Public.ScenarioInput;

export function serviceCases(api: Api): Record<string, ScenarioInput> {
  const { defineService, defineAgent, ServiceError, z } = api;

  const desk = defineService({
    name: 'desk',
    state: { tickets: {}, opened: 0 } as {
      tickets: Record<string, { ref: string; title: string; open: boolean }>;
      opened: number;
    },
    tools: {
      open_ticket: {
        description: 'Open a ticket (one per ref).',
        risk: 'write',
        businessKey: 'ref',
        input: z.object({ ref: z.string(), title: z.string() }).strict(),
        output: z.object({ ticketId: z.string(), ref: z.string() }).strict(),
        check(input) {
          if (input.title === '')
            throw new ServiceError(422, { code: 'invalid_title', message: 'a ticket needs a title', param: 'title' });
        },
        async run(input, ctx) {
          await ctx.travel('response');
          await ctx.travel('request');
          const ticketId = ctx.id('tkt');
          ctx.state.tickets[ticketId] = { ref: input.ref, title: input.title, open: true };
          ctx.state.opened++;
          ctx.effect('ticket.opened', { key: input.ref, data: { ticketId } });
          // A result the output schema refuses: the service's own bug, a 500.
          return input.title === 'bad-output'
            ? { ticketId, ref: input.ref, extra: true }
            : { ticketId, ref: input.ref };
        },
      },
      close_ticket: {
        description: 'Close a ticket.',
        risk: 'idempotent-write',
        businessKey: 'ticketId',
        input: z.object({ ticketId: z.string() }).strict(),
        status: (ticketId, ctx) =>
          ctx.state.tickets[ticketId]?.open === false ? { ticketId, closed: true } : undefined,
        run(input, ctx) {
          const t = ctx.state.tickets[input.ticketId];
          if (!t) throw new ServiceError(404, { code: 'no_ticket', message: `no ticket ${input.ticketId}` });
          t.open = false;
          ctx.effect('ticket.closed', { key: input.ticketId, data: null });
          return { ticketId: input.ticketId, closed: true };
        },
      },
      get_ticket: {
        description: 'Read a ticket.',
        risk: 'read',
        input: z.object({ ticketId: z.string() }).strict(),
        run: (input, ctx) => ({ ticketId: input.ticketId, ...(ctx.state.tickets[input.ticketId] ?? { open: null }) }),
      },
    },
  });

  const billing = defineService({
    name: 'billing',
    state: { invoices: [] as string[] },
    tools: {
      bill_ticket: {
        description: 'Bill a ticket that the desk knows.',
        risk: 'write',
        businessKey: 'ticketId',
        input: z.object({ ticketId: z.string(), cents: z.number().int() }).strict(),
        run(input, ctx) {
          const tickets = ctx.peer<{ tickets: Record<string, unknown> }>('desk')?.tickets ?? {};
          if (!(input.ticketId in tickets))
            throw new ServiceError(409, { code: 'unknown_ticket', message: `desk has no ${input.ticketId}` });
          ctx.state.invoices.push(input.ticketId);
          ctx.effect('ticket.billed', { key: input.ticketId, data: { cents: input.cents } });
          return { invoice: ctx.id('inv') };
        },
      },
    },
  });

  type Answer = { kind: string; value?: unknown };
  type Tool = (input: Record<string, unknown>) => Promise<Answer>;
  const idOf = (r: Answer): string => (r.value as { ticketId?: string } | undefined)?.ticketId ?? 'tkt-none';

  /** Four chains at once: open, read, bill and close; a refused title; a result the schema refuses; a read of a ticket not yet made. */
  const chains = defineAgent(async ({ tools, agent }) => {
    const t = tools as unknown as Record<string, Tool>;
    const me = agent ?? 0;
    const seen: string[] = [];
    const chain = async (name: string, title: string, cents: number): Promise<void> => {
      const opened = await t['open_ticket']!({ ref: `${name}-${me}`, title });
      seen.push(`${name}:open:${opened.kind}`);
      const id = idOf(opened);
      const [read, billed] = await Promise.all([
        t['get_ticket']!({ ticketId: id }),
        t['bill_ticket']!({ ticketId: id, cents }),
      ]);
      seen.push(`${name}:read:${read.kind}`, `${name}:bill:${billed.kind}`);
      const closed = await t['close_ticket']!({ ticketId: id });
      seen.push(`${name}:close:${closed.kind}`);
    };
    await Promise.all([
      chain('a', 'printer', 100),
      chain('b', '', 200),
      (async () => {
        await Promise.resolve();
        const early = await t['get_ticket']!({ ticketId: 'tkt-2' });
        seen.push(`c:early:${early.kind}`);
        await chain('c', 'bad-output', 300);
      })(),
      chain('d', 'screen', 400),
    ]);
    return { outcome: 'completed', message: seen.join(' ') };
  });

  const base = {
    services: [desk, billing],
    agent: { kind: 'function', task: 'Open, read, bill and close tickets at once', fn: chains },
    goal: { outcome: ['completed'] },
  } satisfies Partial<ScenarioInput>;
  const door = { capacity: { rateLimit: { perSecond: 4, burst: 3 }, maxConcurrent: 2, queueLimit: 1 } };

  return {
    'no faults, no capacity': { name: 'desk-plain', ...base },
    'a door: rate limit, two slots, a queue of one; processing time': {
      name: 'desk-door',
      ...base,
      world: { desk: { ...door, processingMs: 5 } },
    },
    'lost answers and refusals, reconciled by status queries': {
      name: 'desk-lost',
      ...base,
      world: { desk: { processingMs: 20 } },
      faults: [
        { match: { tool: 'open_ticket' }, fault: { kind: 'partial_write', lostAs: 'timeout' }, times: 2 },
        { match: { tool: 'close_ticket' }, fault: { kind: 'partial_write', lostAs: 'network' }, times: 1 },
        { match: { tool: 'bill_ticket' }, fault: { kind: 'unavailable', status: 503 }, times: 2 },
        { match: { tool: 'get_ticket' }, fault: { kind: 'rate_limit', retryAfter: 1 }, times: 1 },
      ],
    },
    'stale reads and concurrent duplicates': {
      name: 'desk-stale',
      ...base,
      world: { desk: { processingMs: 5 } },
      faults: [
        { match: { tool: 'open_ticket' }, fault: { kind: 'partial_write', lostAs: 'timeout' }, times: 1 },
        { match: {}, fault: { kind: 'stale', lagMs: 50 }, times: 3 },
        { match: { tool: 'bill_ticket' }, fault: { kind: 'duplicate', copies: 2, concurrent: true }, times: 2 },
      ],
    },
    'a network with variance, and a door': {
      name: 'desk-network',
      ...base,
      world: { desk: door },
      network: { latency: { kind: 'normal', meanMs: 10, sdMs: 3 } },
      faults: [{ match: { tool: 'open_ticket' }, fault: { kind: 'unavailable', status: 503 }, times: 1 }],
    },
    'a crowd of five through the door': {
      name: 'desk-crowd',
      ...base,
      agents: 5,
      world: { desk: { ...door, processingMs: 2 } },
      network: { latency: { kind: 'constant', ms: 3 } },
    },
  };
}

/** The configurations each case runs under: the reference runtime's, and a library's executor. */
export const CASE_CONFIGS = ['rulebook', 'naive', 'full-jitter-budget', 'cockatiel-decorrelated'] as const;
