/** An agent on the Vercel AI SDK (`ai` 6 with `@ai-sdk/openai` 3): `generateText` with a tool, up to 8 steps. */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { defineHttpAgent, finalFromText } from 'faultline';
import { OPEN_TICKET_DESCRIPTION, OPEN_TICKET_SCHEMA, runTool } from './helpdeskTools.js';

export default defineHttpAgent(async ({ task, services, model }) => {
  if (!model) throw new Error('this agent needs the scenario to name a model');
  const openai = createOpenAI({ baseURL: model.baseUrl, apiKey: model.apiKey });
  const result = await generateText({
    model: openai.chat('gpt-4o-mini'),
    prompt: task,
    tools: {
      open_ticket: tool({
        description: OPEN_TICKET_DESCRIPTION,
        inputSchema: jsonSchema<{ requestId: string; subject: string }>(OPEN_TICKET_SCHEMA),
        execute: async (args) => runTool(services['helpdesk']!.baseUrl, 'open_ticket', args),
      }),
    },
    stopWhen: stepCountIs(8),
  });
  const final = finalFromText(result.text);
  return final.kind === 'final'
    ? { outcome: final.outcome, message: final.message, claims: final.claims }
    : { outcome: 'unknown' };
});
