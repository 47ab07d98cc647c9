import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../ScriptedModel.js';
import { MODEL_OPERATION_DESCRIPTIONS, MODEL_OPERATIONS, sdkBaseUrl } from './modelOperations.js';
import { anthropicService, openaiService } from './modelServices.js';

describe('MODEL_OPERATIONS', () => {
  it('names exactly the operations the served routes answer as, each described', () => {
    const model = new ScriptedModel({ steps: [{ tool: 't', input: {} }] });
    expect(openaiService(model).routes.map((r) => r.operation)).toEqual(MODEL_OPERATIONS.openai);
    expect(anthropicService(model).routes.map((r) => r.operation)).toEqual(MODEL_OPERATIONS.anthropic);
    for (const op of [...MODEL_OPERATIONS.openai, ...MODEL_OPERATIONS.anthropic])
      expect(MODEL_OPERATION_DESCRIPTIONS[op]).toBeTruthy();
  });

  it("gives the openai SDK the /v1 base URL and Anthropic's SDK the root", () => {
    expect(sdkBaseUrl('openai', 'https://api.openai.com')).toBe('https://api.openai.com/v1');
    expect(sdkBaseUrl('openai', 'https://gateway.test/openai/')).toBe('https://gateway.test/openai/v1');
    expect(sdkBaseUrl('anthropic', 'https://api.anthropic.com')).toBe('https://api.anthropic.com');
  });
});
