/**
 * An agent on the official `openai` SDK: Chat Completions with tools, the tool calls run
 * against the helpdesk over HTTP. The client is built inside the agent, so its requests go
 * through faultline's interception (a client built at module load keeps the fetch it found then).
 */
import OpenAI from 'openai';
import { defineHttpAgent, finalFromText } from 'faultline';
import { OPEN_TICKET_DESCRIPTION, OPEN_TICKET_SCHEMA, runTool } from './helpdeskTools.js';

export default defineHttpAgent(async ({ task, services, model }) => {
  if (!model) throw new Error('this agent needs the scenario to name a model');
  const client = new OpenAI({ baseURL: model.baseUrl, apiKey: model.apiKey });
  const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
    {
      type: 'function',
      function: { name: 'open_ticket', description: OPEN_TICKET_DESCRIPTION, parameters: OPEN_TICKET_SCHEMA },
    },
  ];
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: task }];
  for (let turn = 0; turn < 8; turn++) {
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
    const message = completion.choices[0]!.message;
    messages.push(message);
    const calls = message.tool_calls ?? [];
    if (calls.length === 0) {
      const final = finalFromText(message.content ?? '');
      return final.kind === 'final'
        ? { outcome: final.outcome, message: final.message, claims: final.claims }
        : { outcome: 'unknown' };
    }
    for (const call of calls) {
      if (call.type !== 'function') continue;
      const content = await runTool(
        services['helpdesk']!.baseUrl,
        call.function.name,
        JSON.parse(call.function.arguments),
      );
      messages.push({ role: 'tool', tool_call_id: call.id, content });
    }
  }
  return { outcome: 'failed', message: 'no final answer in 8 turns' };
});
