/**
 * The middle of a user's OpenAI tool-calling loop, as agent source text, for the test agents
 * written as a user would write them: with the model's `reply` in hand, keep its message, end on
 * a final answer read from its text, else answer each function call with `content` (an
 * expression over `call`, awaited in the loop). Indented to sit in the loop of a default export.
 */
export const openaiTurn = (content: string): string => `    const message = reply.choices[0]!.message;
    messages.push(message);
    if (!message.tool_calls?.length) {
      const final = finalFromText(message.content ?? '');
      return final.kind === 'final' ? { outcome: final.outcome, claims: final.claims } : { outcome: 'unknown' };
    }
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue;
      messages.push({ role: 'tool', tool_call_id: call.id, content: ${content} });
    }
`;
