import OpenAI from 'openai';
import { defineHttpAgent } from 'faultline';

// Built at module load: it keeps the fetch it found before the trial's interception started.
const client = new OpenAI({ baseURL: 'https://api.openai.com/v1', apiKey: 'faultline-test-key', maxRetries: 0 });

export default defineHttpAgent(async ({ task }) => {
  try {
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: task }] });
    return { outcome: 'completed' };
  } catch (error) {
    return { outcome: 'failed', message: String(error) };
  }
});
