import type { Model } from '../model.js';
import type { HttpService } from '../../faults/http/HttpFaults.js';
import { anthropicMessages } from './anthropicMessages.js';
import { ModelResponder, type ModelResponderOptions } from './ModelResponder.js';
import { openaiChat } from './openaiChat.js';
import { openaiResponses } from './openaiResponses.js';

/**
 * The OpenAI API (Chat Completions and Responses) answered by `model`, at the official SDK's
 * default address. A fault plan names its operations `model:openai.chat.completions` and
 * `model:openai.responses`.
 *
 * @example
 * const faults = new HttpFaults({ services: [openaiService(new ScriptedModel(plan))], plan: [{ fault: { kind: 'rate_limit' } }], ... });
 */
export function openaiService(
  model: Model,
  baseUrl = 'https://api.openai.com',
  options: ModelResponderOptions = {},
): HttpService {
  const responder = new ModelResponder(model, options);
  return { baseUrl, routes: [responder.route(openaiChat), responder.route(openaiResponses)] };
}

/** The Anthropic Messages API answered by `model`; its operation is `model:anthropic.messages`. */
export function anthropicService(
  model: Model,
  baseUrl = 'https://api.anthropic.com',
  options: ModelResponderOptions = {},
): HttpService {
  const responder = new ModelResponder(model, options);
  return { baseUrl, routes: [responder.route(anthropicMessages)] };
}
