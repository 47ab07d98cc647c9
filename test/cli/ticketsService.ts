/**
 * A user's TypeScript service `tickets` (one write tool, `open_ticket`) and a scripted scenario
 * that opens ticket r-1 on it, for tests of what the CLI does with a user's service module.
 */

/** The service module's text; `body` adds members to its definition, `head` lines above it. */
export const ticketsService = (body = '', head = ''): string => `import { defineService, z } from 'faultline';
${head}
export default defineService({
  name: 'tickets',
  state: {},
  tools: {
    open_ticket: {
      description: 'Open a ticket.',
      risk: 'write',
      input: z.object({ requestId: z.string() }).strict(),
      run: (input) => ({ ticketId: 't-' + input.requestId }),
    },
  },
  ${body}
});
`;

/** The scenario that loads `./tickets.service.ts` and opens one ticket; `extra` adds top-level keys before the agent. */
export const ticketsScenario = (extra = ''): string => `name: tickets
services: [./tickets.service.ts]
${extra}agent:
  kind: scripted
  task: Open a ticket
  plan:
    steps:
      - tool: open_ticket
        input: { requestId: r-1 }
`;
