/**
 * Pieces of the YAML scenarios in which an agent opens ticket req-42 about the printer on the
 * helpdesk example, with the stand-in model scripted to do just that: one text, so that the
 * scenarios of the CLI and live tests cannot drift apart.
 */

/** The stand-in model's `plan:`, indented to sit under `model:`. */
export const OPEN_TICKET_PLAN = `  plan:
    steps:
      - tool: open_ticket
        input: { requestId: req-42, subject: Printer on fire }
        subject: helpdesk:req-42
`;

/** The shorter task some scenarios give the agent (the stand-in's plan does not read it). */
export const PRINTER_TASK = 'Open a ticket about the printer.';

/**
 * The `agent:` block of an http agent in `module` that opens the ticket, and the `goal:` it meets by completing:
 * the tail of every helpdesk scenario run by a user's own agent.
 */
export const httpAgentOpensTicket = (
  module: string,
  task = 'Open a ticket about the printer that is on fire.',
): string => `agent:
  kind: http
  task: ${task}
  module: ${module}
goal:
  effects: { ticket.opened: 1 }
  outcome: [completed]
`;

/** A scripted agent that creates ticket req-1 on a helpdesk whose write tool is `create_ticket`, and the `goal:` line of its one effect. */
export const SCRIPTED_CREATE_TICKET = `agent:
  kind: scripted
  task: Open a ticket about the printer.
  plan:
    steps:
      - tool: create_ticket
        input: { requestId: req-1, subject: printer on fire }
        subject: helpdesk:req-1
goal:
  effects: { ticket.created: 1 }
`;
