/** The helpdesk service a user declares with `defineService` (one write tool, its own HTTP shape), as the text of its module. */
export const HELPDESK_SERVICE = `import { defineService, ServiceError, z } from 'faultline';

export default defineService({
  name: 'helpdesk',
  state: (): Record<string, { requestId: string; subject: string }> => ({}),
  tools: {
    open_ticket: {
      description: 'Open a support ticket. requestId is your business id for it.',
      risk: 'write',
      businessKey: 'requestId',
      input: z.object({ requestId: z.string(), subject: z.string() }).strict(),
      run(input, ctx) {
        const ticketId = ctx.id('tkt');
        ctx.state[ticketId] = input;
        ctx.effect('ticket.opened', { key: input.requestId, data: { ticketId } });
        return { ticketId };
      },
    },
  },
  http: {
    baseUrl: 'https://helpdesk.example.test',
    routes: [{ method: 'POST', path: '/tickets', tool: 'open_ticket', status: 201 }],
    error: (e: ServiceError) => ({ body: { errors: [{ code: e.code, detail: e.message }] } }),
  },
});
`;
