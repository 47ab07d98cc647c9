// The model APIs' formats and the stand-in behind them, as the ./msw and ./nock subpaths export them.
export { anthropicService, openaiService } from './modelServices.js';
export { ModelResponder, type ModelDialect, type ModelRequestView } from './ModelResponder.js';
export { OPENAI_CHAT, openaiChat } from './openaiChat.js';
export { OPENAI_RESPONSES, openaiResponses } from './openaiResponses.js';
export { ANTHROPIC_MESSAGES, anthropicMessages } from './anthropicMessages.js';
export { actionText, finalFromText, toolResultFromText } from './conversation.js';
