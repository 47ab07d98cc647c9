/**
 * The model side of the wire, judged through the real CLI in a user's project: agents on the
 * official openai SDK meet a 429 with Retry-After and an exhausted quota on the model route,
 * named in the scenario file as a tool; a resend above the SDK (the agent's own loop with the
 * client's retries off, as LangChain builds it) is judged like the SDK's own; a request to a URL
 * the trial does not serve fails the trial naming it, under msw and under nock.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline } from './faultline.js';
import { inProcess } from './inProcess.js';
import { openaiTurn } from './openaiTurn.js';
import { userProject } from './userProject.js';
import { OPEN_TICKET_PLAN } from './ticketScenario.js';

const EXAMPLES = fileURLToPath(new URL('../../scenarios/examples/', import.meta.url));
const CHAT = 'model:openai.chat.completions';

/**
 * An agent on the openai SDK. `sdk`: the SDK's own retries (it honours Retry-After);
 * `early`: retries off, its own loop resends 393 ms after any error (as a framework's backoff
 * would); `careful`: retries off, its own loop waits out Retry-After and stops on a quota error;
 * `quota-loop`: retries off, its own loop resends a quota error at 1278 and 3878 ms (LangChain's
 * way: every resend says `x-stainless-retry-count: 0`); `doubled-v1`: the SDK given `baseUrl + '/v1'`.
 */
const agent = (
  style: 'sdk' | 'early' | 'careful' | 'quota-loop' | 'doubled-v1',
): string => `import OpenAI from 'openai';
import { defineHttpAgent, finalFromText } from 'faultline';
import { OPEN_TICKET_DESCRIPTION, OPEN_TICKET_SCHEMA, runTool } from '${EXAMPLES}sdk-agents/code/helpdeskTools.js';

const STYLE = '${style}';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ask(client: OpenAI, body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming): Promise<OpenAI.Chat.Completions.ChatCompletion> {
  const waits = STYLE === 'quota-loop' ? [1278, 2600] : [393, 393];
  for (let i = 0; ; i++) {
    try {
      return await client.chat.completions.create(body);
    } catch (error) {
      const e = error as { status?: number; code?: string; headers?: Headers };
      if (STYLE === 'sdk' || i >= waits.length) throw error;
      if (STYLE === 'careful') {
        if (e.code === 'insufficient_quota' || e.status !== 429) throw error;
        await sleep(Number(e.headers?.get('retry-after') ?? '1') * 1000);
      } else {
        await sleep(waits[i]!);
      }
    }
  }
}

export default defineHttpAgent(async ({ task, services, model }) => {
  const baseURL = STYLE === 'doubled-v1' ? model!.baseUrl + '/v1' : model!.baseUrl;
  const client = new OpenAI({ baseURL, apiKey: model!.apiKey, maxRetries: STYLE === 'sdk' ? 2 : 0 });
  const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
    { type: 'function', function: { name: 'open_ticket', description: OPEN_TICKET_DESCRIPTION, parameters: OPEN_TICKET_SCHEMA } },
  ];
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: task }];
  for (let turn = 0; turn < 6; turn++) {
    let reply: OpenAI.Chat.Completions.ChatCompletion;
    try {
      reply = await ask(client, { model: 'gpt-4o-mini', messages, tools });
    } catch (error) {
      return { outcome: 'failed', message: \`the model is unavailable: \${String(error)}\` };
    }
${openaiTurn("await runTool(services['helpdesk']!.baseUrl, call.function.name, JSON.parse(call.function.arguments))")}  }
  return { outcome: 'failed' };
});
`;

const scenario = (
  name: string,
  module: string,
  fault: string,
  outcome: 'completed' | 'failed',
  adapter = 'msw',
): string => `name: ${name}
services: [${EXAMPLES}helpdesk/code/helpdesk.service.ts]
http: { adapter: ${adapter} }
model:
  api: openai
${OPEN_TICKET_PLAN}faults:
${fault}
agent:
  kind: http
  task: Open a ticket about the printer.
  module: ${module}
goal:
  effects: { ticket.opened: ${outcome === 'completed' ? 1 : 0} }
  outcome: [${outcome}]
`;

const RATE_LIMIT = `  - match: { tool: ${CHAT}, call: 1 }\n    fault: { kind: rate_limit, retryAfter: 3 }\n    times: 1`;
const QUOTA = `  - match: { tool: ${CHAT} }\n    fault: { kind: quota_exceeded }`;
const NONE = '  []';

// The first run goes through the real binary, its agents on the CLI's workers; the other cases
// run the CLI's entry in this process (./inProcess.ts), their runs with `--workers 0`: what they
// claim is the verdict, which the isolation does not change, and each run on a worker would start
// a worker's host process and load tsx and the openai SDK in it again.
const run = (args: readonly string[]) => inProcess(args, { cwd: project.path });

let project: Awaited<ReturnType<typeof userProject>>;

beforeAll(async () => {
  project = await userProject(
    'model-side',
    {
      'sdk.agent.ts': agent('sdk'),
      'early.agent.ts': agent('early'),
      'careful.agent.ts': agent('careful'),
      'quota-loop.agent.ts': agent('quota-loop'),
      'doubled-v1.agent.ts': agent('doubled-v1'),
      'good/sdk-429.yaml': scenario('sdk-model-429', '../sdk.agent.ts', RATE_LIMIT, 'completed'),
      'good/careful-429.yaml': scenario('careful-model-429', '../careful.agent.ts', RATE_LIMIT, 'completed'),
      'good/careful-quota.yaml': scenario('careful-model-quota', '../careful.agent.ts', QUOTA, 'failed'),
      'bad/early-429.yaml': scenario('early-model-429', '../early.agent.ts', RATE_LIMIT, 'completed'),
      'bad/quota-loop.yaml': scenario('quota-loop', '../quota-loop.agent.ts', QUOTA, 'failed'),
      'bad/doubled-v1-msw.yaml': scenario('doubled-v1-msw', '../doubled-v1.agent.ts', NONE, 'completed'),
      'bad/doubled-v1-nock.yaml': scenario('doubled-v1-nock', '../doubled-v1.agent.ts', NONE, 'completed', 'nock'),
    },
    ['openai'],
  );
});

afterAll(() => project.cleanup());

describe('the model route as a tool of the scenario file', () => {
  it("lists the model routes with the services' tools", async () => {
    const r = await run(['list', '--tools', 'good/careful-quota.yaml']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/model:openai\.chat\.completions\s+model \(openai\)\s+read\s+OpenAI Chat Completions/);
    expect(r.stdout).toMatch(/model:openai\.responses\s+model \(openai\)/);
  });

  it('loads a quota rule on model:openai.chat.completions from YAML, fires it, and passes an agent that stops on it', async () => {
    const r = await faultline(
      ['run', 'good/careful-quota.yaml', 'good/careful-429.yaml', 'good/sdk-429.yaml', '--k', '2'],
      { cwd: project.path },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    for (const name of ['careful-model-quota', 'careful-model-429', 'sdk-model-429'])
      expect(r.stderr).toContain(`✓ rulebook × ${name}: 2/2 passed`);
    const replay = await run(['replay', 'good/careful-quota.yaml', '--trial', '0']);
    // The rule fired on the one model request, which the careful agent did not resend.
    expect(replay.stdout).toMatch(/fault quota_exceeded on http-1 \(rule 0\)/);
    expect(replay.stdout.match(/model:openai\.chat\.completions#\d+ attempt \d+: POST/g)).toEqual([
      'model:openai.chat.completions#1 attempt 1: POST',
    ]);
  });
});

describe('the model side of the wire, judged', () => {
  it('fails an agent that resends 393 ms after Retry-After: 3 on the model, naming the route and the layer', async () => {
    const r = await run(['run', 'bad/early-429.yaml', '--k', '1', '--workers', '0']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/retry-discipline/);
    const replay = await run(['replay', 'bad/early-429.yaml', '--trial', '0']);
    expect(replay.stdout).toMatch(
      /✗ retry-discipline: model call model:openai\.chat\.completions#1 attempt 2 \(http-2, POST https:\/\/api\.openai\.com\/v1\/chat\/completions\) at t=393ms to model:openai\.chat\.completions was sent 393ms after the 429 answer to http-1 at t=0ms said Retry-After: 3 \(3000ms, until t=3000ms\), resent by a framework or the agent's own loop \(the same body again with x-stainless-retry-count: 0: not the SDK's retry\) \(R9\)/,
    );
  });

  it("groups a loop's quota resends (maxRetries: 0, count 0 each time) into one model call and fails it (R5), naming the layer", async () => {
    const r = await run(['run', 'bad/quota-loop.yaml', '--k', '1', '--workers', '0']);
    expect(r.code).toBe(1);
    const replay = await run(['replay', 'bad/quota-loop.yaml', '--trial', '0']);
    expect(replay.stdout).toMatch(
      /✗ model-retries: model call model:openai\.chat\.completions#1 to model:openai\.chat\.completions was resent 2 time\(s\) after its quota_exceeded answer to http-1 at t=0ms \(http-2 by a framework or the agent's own loop .*, http-3 by a framework or the agent's own loop .*\): .*\(R5\)/,
    );
  });
});

describe('a request to a URL the trial does not serve', () => {
  for (const adapter of ['msw', 'nock']) {
    it(`fails the trial naming the request and what is served, under ${adapter}`, async () => {
      const r = await run(['run', `bad/doubled-v1-${adapter}.yaml`, '--k', '1', '--workers', '0']);
      expect(r.code).toBe(1);
      const message =
        'POST https://api.openai.com/v1/v1/chat/completions: no route of this trial serves it, so it was refused (unhandled-request policy "error"); served at this host: POST https://api.openai.com/v1/chat/completions (model:openai.chat.completions), POST https://api.openai.com/v1/responses (model:openai.responses); ctx.model.baseUrl already ends in /v1 for openai: give it to the SDK as is';
      expect(r.stdout).toContain(message);
      const replay = await run(['replay', `bad/doubled-v1-${adapter}.yaml`, '--trial', '0']);
      expect(replay.stdout).toContain(
        'unserved: POST https://api.openai.com/v1/v1/chat/completions (refused: served here: POST https://api.openai.com/v1/chat/completions',
      );
    });
  }
});
