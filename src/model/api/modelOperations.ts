/**
 * The model APIs as a scenario names them: the operations their routes answer as (a fault
 * rule's `match.tool`), where they are served, and what each SDK takes as its base URL. Plain
 * data, so that scenario validation and `faultline list` need not load the dialects.
 */

/** The APIs a scenario's model can speak. */
export type ModelApi = 'openai' | 'anthropic';

/** Each API's routes by the operation a fault rule names in `match.tool`. */
export const MODEL_OPERATIONS: Readonly<Record<ModelApi, readonly string[]>> = {
  openai: ['model:openai.chat.completions', 'model:openai.responses'],
  anthropic: ['model:anthropic.messages'],
};

/** What each operation is, for `faultline list --tools`. */
export const MODEL_OPERATION_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'model:openai.chat.completions':
    'OpenAI Chat Completions (POST /v1/chat/completions), answered by the scenario’s model',
  'model:openai.responses': 'OpenAI Responses (POST /v1/responses), answered by the scenario’s model',
  'model:anthropic.messages': 'Anthropic Messages (POST /v1/messages), answered by the scenario’s model',
};

/** The official addresses the SDKs use by default: intercepted, so no request leaves the machine. */
export const MODEL_API_ROOTS: Readonly<Record<ModelApi, string>> = {
  openai: 'https://api.openai.com',
  anthropic: 'https://api.anthropic.com',
};

/**
 * The API's root for a scenario's `model.baseUrl`: the routes add `/v1/…`, so a URL given the way
 * OpenAI-compatible servers document theirs (`http://127.0.0.1:11434/v1` for Ollama, vLLM's
 * `…:8000/v1`) stands for its root; without one, the official address.
 */
export const modelRoot = (api: ModelApi, baseUrl: string | undefined): string => {
  if (baseUrl === undefined) return MODEL_API_ROOTS[api];
  const url = new URL(baseUrl);
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return url.href.replace(/\/+$/, '');
};

/**
 * What each SDK takes as its base URL for the API served at `root`: the openai SDK (and the AI
 * SDK's `createOpenAI`, LangChain's `ChatOpenAI`) wants the `/v1` in it; Anthropic's SDK adds
 * `/v1/messages` itself, so it takes the root.
 */
export const sdkBaseUrl = (api: ModelApi, root: string): string => {
  const bare = root.replace(/\/+$/, '');
  return api === 'openai' ? `${bare}/v1` : bare;
};
