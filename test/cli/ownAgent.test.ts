/**
 * A user's own agent on the official `openai` SDK, with its own fetch tools (an Idempotency-Key,
 * its own retries) and a service declared with `defineService`, in a project outside the repo,
 * through the CLI: pass^k, JUnit, replay, and the checkers judging what crossed the wire (the first
 * run through the real binary, the other runs and the replays in process, `./inProcess.ts`).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline } from './faultline.js';
import { inProcess } from './inProcess.js';
import { openaiTurn } from './openaiTurn.js';
import { HELPDESK_SERVICE as SERVICE } from './helpdeskService.js';
import { httpAgentOpensTicket, PRINTER_TASK } from './ticketScenario.js';
import { userProject } from './userProject.js';

/** The team's tool: its own retries, one key per operation unless told otherwise, Retry-After honoured unless told otherwise. */
const TOOL = `export interface ToolStyle { readonly honourRetryAfter: boolean; readonly keyPerRetry: boolean }

let keys = 0;

export async function openTicket(baseUrl: string, args: { requestId: string; subject: string }, style: ToolStyle): Promise<string> {
  const operationKey = 'op-' + args.requestId;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const key = style.keyPerRetry ? 'k-' + ++keys : operationKey;
    try {
      const res = await fetch(baseUrl + '/tickets', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(args),
        signal: AbortSignal.timeout(5_000),
      });
      const text = await res.text();
      if (res.ok) return text;
      if (res.status !== 429 && res.status < 500) return text;
      const hinted = Number(res.headers.get('retry-after') ?? '1') * 1000;
      await new Promise((r) => setTimeout(r, style.honourRetryAfter ? hinted : 400));
    } catch {
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
  return JSON.stringify({ error: 'gave up after 3 tries' });
}
`;

const agent = (style: string): string => `import OpenAI from 'openai';
import { defineHttpAgent, finalFromText } from 'faultline';
import { openTicket } from './tools.js';

export default defineHttpAgent(async ({ task, services, model }) => {
  const client = new OpenAI({ baseURL: model!.baseUrl, apiKey: model!.apiKey });
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: task }];
  const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [{
    type: 'function',
    function: { name: 'open_ticket', parameters: { type: 'object', properties: { requestId: { type: 'string' }, subject: { type: 'string' } }, required: ['requestId', 'subject'] } },
  }];
  for (let turn = 0; turn < 6; turn++) {
    const reply = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
${openaiTurn(`await openTicket(services['helpdesk']!.baseUrl, JSON.parse(call.function.arguments), ${style})`)}  }
  return { outcome: 'failed' };
});
`;

const scenario = (name: string, module: string, fault: string): string => `name: ${name}
services: [./helpdesk.service.ts]
model:
  api: openai
  plan:
    steps:
      - tool: open_ticket
        input: { requestId: req-7, subject: Printer on fire }
        subject: helpdesk:req-7
faults:
  - match: { tool: open_ticket, attempt: 1 }
    fault: ${fault}
${httpAgentOpensTicket(module, PRINTER_TASK)}`;

const RATE_LIMIT = '{ kind: rate_limit, retryAfter: 7 }';
const LOST = '{ kind: partial_write, lostAs: network }';

let project: Awaited<ReturnType<typeof userProject>>;

beforeAll(async () => {
  project = await userProject(
    'own-agent',
    {
      'helpdesk.service.ts': SERVICE,
      'tools.ts': TOOL,
      'careful.agent.ts': agent('{ honourRetryAfter: true, keyPerRetry: false }'),
      'ignores-retry-after.agent.ts': agent('{ honourRetryAfter: false, keyPerRetry: false }'),
      'new-key.agent.ts': agent('{ honourRetryAfter: true, keyPerRetry: true }'),
      'careful-rate-limit.yaml': scenario('careful-rate-limit', './careful.agent.ts', RATE_LIMIT),
      'careful-lost.yaml': scenario('careful-lost', './careful.agent.ts', LOST),
      'bad/ignores-retry-after.yaml': scenario(
        'ignores-retry-after',
        '../ignores-retry-after.agent.ts',
        RATE_LIMIT,
      ).replace('./helpdesk.service.ts', '../helpdesk.service.ts'),
      'bad/new-key.yaml': scenario('new-key-per-retry', '../new-key.agent.ts', LOST).replace(
        './helpdesk.service.ts',
        '../helpdesk.service.ts',
      ),
    },
    ['openai'],
  );
});

afterAll(() => project.cleanup());

describe('your own agent on the openai SDK, judged by what crossed the wire', () => {
  it('holds every gate when keys and Retry-After are honoured, with pass^4 and JUnit', async () => {
    const r = await faultline(['run', 'careful-rate-limit.yaml', 'careful-lost.yaml', '--k', '4'], {
      cwd: project.path,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/scenario\s+pass\^1\s+pass\^4\s+pass@4/);
    expect(r.stdout).toMatch(
      /✓ careful-rate-limit\s+1\.000 \[0\.40, 1\.00\]\s+1\.000 \[0\.02, 1\.00\]\s+1\.000 \[0\.87, 1\.00\]\s+4\/4/,
    );
    expect(r.stdout).toMatch(
      /✓ careful-lost\s+1\.000 \[0\.40, 1\.00\]\s+1\.000 \[0\.02, 1\.00\]\s+1\.000 \[0\.87, 1\.00\]\s+4\/4/,
    );
    const junit = await readFile(join(project.path, 'reports/junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites name="faultline" tests="\d+" failures="0" errors="0"/);
    expect(junit).toMatch(/<testcase [^>]*name="careful-rate-limit"/);
    expect(junit).toMatch(/<testcase [^>]*name="careful-lost"/);
  });

  it('catches a tool that ignores Retry-After, naming the request and the header, and replays the failing trial', async () => {
    // --workers 0: the verdicts are the claim, not isolation (the binary run uses a worker); spares a worker's start.
    const r = await inProcess(['run', 'bad/ignores-retry-after.yaml', '--k', '4', '--workers', '0'], {
      cwd: project.path,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/retry-discipline/);
    expect(r.stdout).toMatch(/Retry-After/);
    const replayLine = /replay: (faultline replay .*)/.exec(r.stdout)?.[1];
    expect(replayLine).toBe('faultline replay bad/ignores-retry-after.yaml --config rulebook --seed 1 --trial 0');
    const replay = await inProcess(replayLine!.split(' ').slice(1), { cwd: project.path });
    expect(replay.code).toBe(1);
    expect(replay.stdout).toMatch(/✗ retry-discipline: .*http-\d+.*Retry-After/);
  });

  it('flags a new key per retry (R23)', async () => {
    // --workers 0: the verdicts are the claim, not isolation (the binary run uses a worker); spares a worker's start.
    const r = await inProcess(['run', 'bad/new-key.yaml', '--k', '2', '--workers', '0'], { cwd: project.path });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /new-key-per-retry × rulebook: 2 of 2 trials failed \(goal-state, duplicates, retry-discipline\)/,
    );
    const replay = await inProcess(['replay', 'bad/new-key.yaml', '--seed', '1', '--trial', '0'], {
      cwd: project.path,
    });
    expect(replay.stdout).toMatch(/✗ retry-discipline: .*\(R23\)/);
  });
});
