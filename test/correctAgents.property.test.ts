import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  defineHttpAgent,
  defineScenario,
  defineService,
  rulebookDefault,
  runTrial,
  ServiceError,
  z,
  type HttpAgentContext,
} from '../src/public/index.js';
import { formatTimeline } from '../src/report/timeline.js';

/**
 * Law: a correct agent with no faults gets no failing verdict. The agent is the user's own
 * fetch code over a REST API, generated as sequences of reads (GET or HEAD of a ticket that may
 * not exist yet), writes (each opens a new ticket once, with its own key), waits, and polls
 * (read until the ticket appears, waiting between tries). Reading again after a write, or after
 * a wait, is a new question, not a retry (the false R7 of issue 21 was this class).
 */

const tickets = defineService({
  name: 'tickets',
  description: 'Tickets: open and read.',
  state: (): Record<string, { requestId: string }> => ({}),
  tools: {
    open_ticket: {
      description: 'Open a ticket.',
      risk: 'write',
      input: z.object({ requestId: z.string().min(1) }).strict(),
      businessKey: 'requestId',
      run(input, ctx) {
        const ticketId = ctx.id('tkt');
        ctx.state[ticketId] = input;
        ctx.effect('ticket.opened', { key: input.requestId });
        return { ticketId };
      },
    },
    get_ticket: {
      description: 'Get one ticket.',
      risk: 'read',
      input: z.object({ ticketId: z.string().min(1) }).strict(),
      run({ ticketId }, ctx) {
        const ticket = ctx.state[ticketId];
        if (!ticket) throw new ServiceError(404, { code: 'not_found', message: `no ticket ${ticketId}` });
        return { ticketId, ...ticket };
      },
    },
  },
  http: {
    baseUrl: 'https://tickets.example.test',
    routes: [
      { method: 'POST', path: '/tickets', tool: 'open_ticket', status: 201 },
      { method: 'GET', path: '/tickets/:ticketId', tool: 'get_ticket' },
      { method: 'HEAD', path: '/tickets/:ticketId', tool: 'get_ticket' },
    ],
  },
});

type Op =
  | { readonly kind: 'read'; readonly ticket: number; readonly method: 'GET' | 'HEAD'; readonly gapMs: number }
  | { readonly kind: 'write' }
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'poll'; readonly ticket: number; readonly everyMs: number; readonly tries: number };

const ticketArb = fc.integer({ min: 1, max: 3 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('read' as const),
    ticket: ticketArb,
    method: fc.constantFrom('GET' as const, 'HEAD' as const),
    gapMs: fc.integer({ min: 1, max: 2_000 }),
  }),
  fc.record({ kind: fc.constant('write' as const) }),
  fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 5_000 }) }),
  fc.record({
    kind: fc.constant('poll' as const),
    ticket: ticketArb,
    everyMs: fc.integer({ min: 100, max: 2_000 }),
    tries: fc.integer({ min: 2, max: 6 }),
  }),
);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The correct agent: one key per write, never the same question twice at once, claims what it saw. */
const agentOf = (ops: readonly Op[]) =>
  defineHttpAgent(async ({ services }: HttpAgentContext) => {
    const base = services['tickets']!.baseUrl;
    const opened: string[] = [];
    const read = async (ticket: number, method: 'GET' | 'HEAD'): Promise<boolean> =>
      (await fetch(`${base}/tickets/tkt-${ticket}`, { method })).ok;
    for (const op of ops) {
      if (op.kind === 'wait') await sleep(op.ms);
      else if (op.kind === 'read') {
        await sleep(op.gapMs);
        await read(op.ticket, op.method);
      } else if (op.kind === 'write') {
        const requestId = `req-${opened.length + 1}`;
        const res = await fetch(`${base}/tickets`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': `open-${requestId}` },
          body: JSON.stringify({ requestId }),
        });
        if (!res.ok) return { outcome: 'failed', claims: [] };
        opened.push(requestId);
      } else {
        // Every try waits first: the same question twice in one instant is a retry (R7), not a poll.
        for (let i = 0; i < op.tries; i++) {
          await sleep(op.everyMs);
          if (await read(op.ticket, 'GET')) break;
        }
      }
    }
    return {
      outcome: 'completed',
      claims: opened.map((r) => ({ subject: `tickets:${r}`, status: 'succeeded' as const })),
    };
  });

const scenarioOf = (ops: readonly Op[]) =>
  defineScenario({
    name: 'correct-agent-no-faults',
    services: [tickets],
    agent: { kind: 'http', task: 'Open, read and poll tickets.', run: agentOf(ops) },
    budget: { maxToolCalls: 200, deadlineMs: 3_600_000 },
  });

describe('law: a correct agent with no faults gets no failing verdict', () => {
  it('HEAD 404, POST 201, HEAD 200 (issue 21) passes every checker', async () => {
    const ops: Op[] = [
      { kind: 'read', ticket: 1, method: 'HEAD', gapMs: 1 },
      { kind: 'write' },
      { kind: 'read', ticket: 1, method: 'HEAD', gapMs: 1 },
    ];
    const trial = await runTrial({ scenario: scenarioOf(ops), config: rulebookDefault, runSeed: 1, trialIndex: 0 });
    expect(
      trial.checks.filter((c) => c.verdict.valid !== true),
      formatTimeline(trial.history),
    ).toEqual([]);
    expect(
      trial.history.filter((e) => e.type === 'response').map((e) => (e.type === 'response' ? e.status : 0)),
    ).toEqual([404, 201, 200]);
  });

  it('over generated read, write, wait and poll sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 8 }), async (ops) => {
        const trial = await runTrial({ scenario: scenarioOf(ops), config: rulebookDefault, runSeed: 1, trialIndex: 0 });
        const failed = trial.checks.filter((c) => c.verdict.valid !== true);
        if (failed.length > 0)
          throw new Error(
            `${JSON.stringify(ops)}\n${failed.map((c) => `${c.name}: ${c.verdict.valid === true ? '' : c.verdict.message}`).join('\n')}\n${formatTimeline(trial.history)}`,
          );
      }),
      { numRuns: 60, seed: 21 },
    );
  });
});
