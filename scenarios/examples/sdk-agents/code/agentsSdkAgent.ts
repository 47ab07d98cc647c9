/** An agent on the OpenAI Agents SDK (`@openai/agents` 0.8): one Agent with one tool, on Chat Completions. */
import { Agent, run, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { defineHttpAgent, finalFromText } from 'faultline';
import { OPEN_TICKET_DESCRIPTION, OPEN_TICKET_SCHEMA, runTool } from './helpdeskTools.js';

export default defineHttpAgent(async ({ task, services, model }) => {
  if (!model) throw new Error('this agent needs the scenario to name a model');
  // Offline: no traces exported, and the client (built here, inside the trial) points at the scripted model.
  setTracingDisabled(true);
  // The Agents SDK resolves `openai` as CommonJS; this file imports it as ESM: one class, two declarations.
  setDefaultOpenAIClient(
    new OpenAI({ baseURL: model.baseUrl, apiKey: model.apiKey }) as unknown as Parameters<
      typeof setDefaultOpenAIClient
    >[0],
  );
  setOpenAIAPI('chat_completions');
  const openTicket = tool({
    name: 'open_ticket',
    description: OPEN_TICKET_DESCRIPTION,
    parameters: OPEN_TICKET_SCHEMA,
    strict: true,
    execute: async (args) => runTool(services['helpdesk']!.baseUrl, 'open_ticket', args),
  });
  const agent = new Agent({
    name: 'helpdesk-agent',
    instructions: 'You open support tickets.',
    model: 'gpt-4o-mini',
    tools: [openTicket],
  });
  const result = await run(agent, task, { maxTurns: 8 });
  const final = finalFromText(String(result.finalOutput ?? ''));
  return final.kind === 'final'
    ? { outcome: final.outcome, message: final.message, claims: final.claims }
    : { outcome: 'unknown' };
});
