/**
 * The turn of an agent on the openai SDK's Chat Completions that the test agents share, as source
 * text to put in their modules (inside their loop over turns, with `completion`, `messages` and
 * `finalFromText` in scope): a reply without tool calls is the final answer, read by
 * `finalFromText`; otherwise the loop goes on over the function calls, the agent's own code
 * running each one after these lines.
 */
export const ANSWER_OR_TOOL_CALLS = `    const message = completion.choices[0]!.message;
    messages.push(message);
    const calls = message.tool_calls ?? [];
    if (calls.length === 0) {
      const final = finalFromText(message.content ?? '');
      return final.kind === 'final' ? { outcome: final.outcome, message: final.message, claims: final.claims } : { outcome: 'unknown' };
    }
    for (const call of calls) {
      if (call.type !== 'function') continue;`;
