/** OpenAI Responses API input item for a function's result. It has no error flag (R16). */
export interface OpenAIFunctionCallOutput {
  readonly type: 'function_call_output';
  readonly call_id: string;
  readonly output: string;
}

/** The error, if any, must already be in `text`: OpenAI has nowhere else to put it. */
export const openaiFeedback = (callId: string, text: string): OpenAIFunctionCallOutput => ({
  type: 'function_call_output',
  call_id: callId,
  output: text,
});
