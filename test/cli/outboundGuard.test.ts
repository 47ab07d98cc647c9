import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline } from './faultline.js';
import { userProject } from './userProject.js';

/**
 * The OpenAI Agents SDK, tracing on as it ships: its exporter posts traces to
 * `https://api.openai.com/v1/traces/ingest` with `OPENAI_API_KEY` on timers of its own, before a
 * trial, inside it and after it. Through the real binary, with a planted key and a watch on every
 * TCP connection of every process and thread of the run: nothing connects to another machine,
 * the key is in no output, and the exit code is the verdict's.
 */

const KEY = 'sk-test-PLANTEDkey0123456789abcdef';
const WATCH = fileURLToPath(new URL('./connectWatch.cjs', import.meta.url));

const AGENT = `import { Agent, getGlobalTraceProvider, run, setDefaultOpenAIClient, setOpenAIAPI, tool, withTrace } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';
import { defineHttpAgent, finalFromText } from 'faultline';

// A trace exported at import: outside any trial (tracing stays on, as the SDK ships it).
await withTrace('warm-up', async () => undefined);
await getGlobalTraceProvider().forceFlush();

export default defineHttpAgent(async ({ task, services, model }) => {
  setDefaultOpenAIClient(new OpenAI({ baseURL: model!.baseUrl, apiKey: model!.apiKey, maxRetries: 0 }) as never);
  setOpenAIAPI('chat_completions');
  const createOrder = tool({
    name: 'create_order',
    description: 'Create an order',
    parameters: z.object({ clientReference: z.string(), item: z.string(), quantity: z.number(), amountCents: z.number() }),
    strict: true,
    execute: async (args) => (await fetch(services['orders']!.baseUrl + '/tools/create_order', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(args) })).text(),
  });
  const agent = new Agent({ name: 'orders-agent', instructions: 'You create orders.', model: 'gpt-4o-mini', tools: [createOrder] });
  const result = await run(agent, task, { maxTurns: 8 });
  // The trial's spans, exported inside it (its interception answers) ...
  await getGlobalTraceProvider().forceFlush();
  const final = finalFromText(String(result.finalOutput ?? ''));
  return final.kind === 'final' ? { outcome: final.outcome, message: final.message, claims: final.claims } : { outcome: 'completed' };
});
`;

const SCENARIO = `name: traced
services: [orders]
model:
  api: openai
  plan:
    steps:
      - { tool: create_order, input: { clientReference: ref-1, item: book, quantity: 1, amountCents: 1500 }, subject: orders:ref-1 }
agent:
  kind: http
  task: Create order ref-1
  module: ./agent.ts
goal: { effects: { order.created: 1 } }
`;

let project: Awaited<ReturnType<typeof userProject>>;
beforeAll(async () => {
  project = await userProject('outbound', { 'traced.yaml': SCENARIO, 'agent.ts': AGENT }, [
    '@openai/agents',
    'openai',
    'zod',
  ]);
});
afterAll(() => project.cleanup());

async function outputs(dir: string): Promise<string> {
  const files = await readdir(dir, { recursive: true });
  const texts = await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8').catch(() => '')));
  return texts.join('\n');
}

describe('the OpenAI Agents SDK trace exporter under faultline', () => {
  it('the watch sees a connection to another machine when one is made (the check below can fail)', async () => {
    const log = join(project.path, 'control.log');
    await promisify(execFile)(
      process.execPath,
      ['-e', "fetch('https://api.openai.com/v1/traces/ingest', { method: 'POST' }).catch(() => undefined)"],
      {
        env: { ...process.env, NODE_OPTIONS: `--require ${WATCH}`, FAULTLINE_CONNECT_LOG: log },
      },
    );
    expect(await readFile(log, 'utf8')).toContain('api.openai.com:443');
  });

  for (const workers of ['1', '0']) {
    it(`on ${workers === '0' ? 'the CLI process (--workers 0)' : 'a worker'}: no request leaves, the key is in no output, exit 0`, async () => {
      const log = join(project.path, `connect-${workers}.log`);
      await writeFile(log, '');
      const out = `out-${workers}`;
      const r = await faultline(['run', 'traced.yaml', '--k', '2', '--workers', workers, '--out', out], {
        cwd: project.path,
        // NODE_ENV=test turns the SDK's tracing off; a user's run has it on.
        env: {
          OPENAI_API_KEY: KEY,
          NODE_ENV: '',
          FAULTLINE_LOAD_TIMEOUT_MS: '120000',
          NODE_OPTIONS: `--require ${WATCH}`,
          FAULTLINE_CONNECT_LOG: log,
        },
      });
      const report = JSON.parse(await readFile(join(project.path, out, 'faultline.json'), 'utf8')) as {
        cells: { metrics: { successes: number }; trials: { end: unknown; failed: unknown }[] }[];
      };
      // A failing trial's end and checks say why, beside the console.
      expect(
        r.code,
        `${r.stderr}\n${r.stdout}\n${JSON.stringify(report.cells.flatMap((c) => c.trials.map((t) => ({ end: t.end, failed: t.failed }))))}`,
      ).toBe(0);
      expect(report.cells.map((c) => c.metrics.successes)).toEqual([2]);
      // The export at import, outside any trial, was answered by the guard (and said so, once per process).
      expect(r.stderr).toContain(
        'faultline: refused POST https://api.openai.com/v1/traces/ingest from agent code outside its trial: answered 403 here, never sent',
      );
      expect(await readFile(log, 'utf8')).toBe('');
      const everything = `${r.stdout}\n${r.stderr}\n${await outputs(join(project.path, out))}`;
      expect(everything).not.toContain(KEY);
      expect(everything).not.toContain('PLANTEDkey');
    });
  }
});
