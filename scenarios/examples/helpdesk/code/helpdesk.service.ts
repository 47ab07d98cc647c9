/**
 * A helpdesk API none of the built-ins covers, declared once. The same declaration serves the
 * in-process scenario (`../ticket-partial-write.yaml`) and, through its `http` routes, the REST
 * API an unmodified fetch tool calls (`../ticket-over-http.yaml`).
 */
import { defineService, ServiceError, z } from 'faultline';

export interface Ticket {
  readonly requestId: string;
  readonly subject: string;
  readonly priority: 'low' | 'normal' | 'urgent';
  readonly status: 'open' | 'closed';
}

export default defineService({
  name: 'helpdesk',
  description: 'Support tickets: open, get, close.',
  // Scenarios may set `world.helpdesk.maxOpen` besides idempotency, retentionMs and processingMs.
  options: z.object({ maxOpen: z.number().int().positive().default(50) }),
  state: (): Record<string, Ticket> => ({}),
  tools: {
    open_ticket: {
      description: 'Open a support ticket. requestId is your business id for it; sending it twice opens two tickets.',
      risk: 'write',
      input: z
        .object({
          requestId: z.string().min(1),
          subject: z.string().min(1),
          priority: z.enum(['low', 'normal', 'urgent']).default('normal'),
        })
        .strict(),
      businessKey: 'requestId',
      run(input, ctx) {
        const open = Object.values(ctx.state).filter((t) => t.status === 'open').length;
        if (open >= ctx.options.maxOpen)
          throw new ServiceError(429, {
            code: 'too_many_open_tickets',
            message: `at most ${ctx.options.maxOpen} open tickets`,
            headers: { 'Retry-After': '60' },
          });
        const ticketId = ctx.id('tkt');
        ctx.state[ticketId] = { ...input, status: 'open' };
        ctx.effect('ticket.opened', { key: input.requestId, data: { ticketId, priority: input.priority } });
        return { ticketId, ...ctx.state[ticketId] };
      },
    },
    get_ticket: {
      description: 'Get one ticket by its id.',
      risk: 'read',
      input: z.object({ ticketId: z.string().min(1) }).strict(),
      run({ ticketId }, ctx) {
        const ticket = ctx.state[ticketId];
        if (!ticket)
          throw new ServiceError(404, {
            code: 'ticket_not_found',
            message: `no ticket ${ticketId}`,
            param: 'ticketId',
          });
        return { ticketId, ...ticket };
      },
    },
    close_ticket: {
      description: 'Close a ticket. Closing a closed ticket changes nothing.',
      risk: 'idempotent-write',
      input: z.object({ ticketId: z.string().min(1) }).strict(),
      businessKey: 'ticketId',
      run({ ticketId }, ctx) {
        const ticket = ctx.state[ticketId];
        if (!ticket)
          throw new ServiceError(404, {
            code: 'ticket_not_found',
            message: `no ticket ${ticketId}`,
            param: 'ticketId',
          });
        if (ticket.status === 'open') {
          ctx.state[ticketId] = { ...ticket, status: 'closed' };
          ctx.effect('ticket.closed', { key: ticketId });
        }
        return { ticketId, ...ctx.state[ticketId] };
      },
    },
  },
  http: {
    baseUrl: 'https://helpdesk.example.test/api',
    routes: [
      { method: 'POST', path: '/tickets', tool: 'open_ticket', status: 201 },
      // The status query (R21): by the Idempotency-Key header, or ?requestId=.
      { method: 'GET', path: '/tickets/lookup', tool: 'open_ticket', purpose: 'status' },
      { method: 'GET', path: '/tickets/:ticketId', tool: 'get_ticket' },
      { method: 'POST', path: '/tickets/:ticketId/close', tool: 'close_ticket' },
    ],
    // This API's own error shape: a list of errors, each with a code and a detail.
    error: (e) => ({
      body: { errors: [{ code: e.code, detail: e.message, ...(e.param === undefined ? {} : { field: e.param }) }] },
    }),
  },
});
