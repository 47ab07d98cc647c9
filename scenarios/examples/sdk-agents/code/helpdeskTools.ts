/**
 * The agent's tools as an LLM SDK sees them: a JSON Schema per tool, and one function that
 * runs a tool call against the helpdesk's REST API with the team's own fetch tool.
 */
import { openTicket } from '../../helpdesk/code/openTicket.js';

/** The input schema every SDK is given for `open_ticket`. */
export const OPEN_TICKET_SCHEMA: {
  type: 'object';
  properties: Record<string, { type: 'string' }>;
  required: string[];
  additionalProperties: false;
} = {
  type: 'object',
  properties: { requestId: { type: 'string' }, subject: { type: 'string' } },
  required: ['requestId', 'subject'],
  additionalProperties: false,
};

export const OPEN_TICKET_DESCRIPTION = 'Open a support ticket. requestId is your business id for it.';

/** Runs one tool call; the text goes back to the model as the tool's result. */
export async function runTool(baseUrl: string, name: string, args: unknown): Promise<string> {
  if (name !== 'open_ticket') return JSON.stringify({ error: `no tool named ${name}` });
  const result = await openTicket(baseUrl, args as { requestId: string; subject: string });
  return JSON.stringify(result);
}
