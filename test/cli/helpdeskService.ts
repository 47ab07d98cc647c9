/** The write tool that opens a ticket, `tool`, recording `effect` with the ticket's id: a `tools:` entry of a service module. */
const openTicketTool = (tool: string, effect: string): string => `    ${tool}: {
      description: 'Open a support ticket. requestId is your business id for it.',
      risk: 'write',
      businessKey: 'requestId',
      input: z.object({ requestId: z.string(), subject: z.string() }).strict(),
      run(input, ctx) {
        const ticketId = ctx.id('tkt');
        ctx.state[ticketId] = input;
        ctx.effect('${effect}', { key: input.requestId, data: { ticketId } });
        return { ticketId };
      },
    },
`;

export interface HelpdeskOptions {
  /** The write tool's name and the effect it records (`open_ticket`, `ticket.opened`). */
  readonly tool?: string;
  readonly effect?: string;
  /** More `tools:` entries, as text. */
  readonly moreTools?: string;
  /** The HTTP routes, as text of route objects; none: the service has no HTTP shape. */
  readonly routes?: readonly string[];
}

/** A helpdesk service a user declares with `defineService`, as the text of its module. */
export const helpdeskService = ({
  tool = 'open_ticket',
  effect = 'ticket.opened',
  moreTools = '',
  routes,
}: HelpdeskOptions = {}): string => `import { defineService, ServiceError, z } from 'faultline';

export default defineService({
  name: 'helpdesk',
  state: (): Record<string, { requestId: string; subject: string }> => ({}),
  tools: {
${openTicketTool(tool, effect)}${moreTools}  },
${
  routes === undefined
    ? ''
    : `  http: {
    baseUrl: 'https://helpdesk.example.test',
    routes: [${routes.join(', ')}],
    error: (e: ServiceError) => ({ body: { errors: [{ code: e.code, detail: e.message }] } }),
  },
`
}});
`;

/** The POST route of the open_ticket tool. */
export const OPEN_TICKET_ROUTE = "{ method: 'POST', path: '/tickets', tool: 'open_ticket', status: 201 }";

/** The helpdesk service with one write tool (open_ticket) and its own HTTP shape. */
export const HELPDESK_SERVICE = helpdeskService({ routes: [OPEN_TICKET_ROUTE] });
