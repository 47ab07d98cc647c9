/** An agent on the official `@anthropic-ai/sdk`: Messages with tools, tool calls run against the helpdesk. */
import Anthropic from '@anthropic-ai/sdk';
import { defineHttpAgent, finalFromText } from 'faultline';
import { OPEN_TICKET_DESCRIPTION, OPEN_TICKET_SCHEMA, runTool } from './helpdeskTools.js';

export default defineHttpAgent(async ({ task, services, model }) => {
  if (!model) throw new Error('this agent needs the scenario to name a model');
  const client = new Anthropic({ baseURL: model.baseUrl, apiKey: model.apiKey });
  const tools: Anthropic.Tool[] = [
    { name: 'open_ticket', description: OPEN_TICKET_DESCRIPTION, input_schema: OPEN_TICKET_SCHEMA },
  ];
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: task }];
  for (let turn = 0; turn < 8; turn++) {
    const reply = await client.messages.create({ model: 'claude-sonnet-5', max_tokens: 1024, messages, tools });
    messages.push({ role: 'assistant', content: reply.content });
    const uses = reply.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
    if (uses.length === 0) {
      const text = reply.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      const final = finalFromText(text);
      return final.kind === 'final'
        ? { outcome: final.outcome, message: final.message, claims: final.claims }
        : { outcome: 'unknown' };
    }
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const use of uses)
      results.push({
        type: 'tool_result',
        tool_use_id: use.id,
        content: await runTool(services['helpdesk']!.baseUrl, use.name, use.input),
      });
    messages.push({ role: 'user', content: results });
  }
  return { outcome: 'failed', message: 'no final answer in 8 turns' };
});
