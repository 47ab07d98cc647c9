/**
 * The stand-in model reads what real agents send it: an app on the official `openai` SDK whose tool
 * messages are plain error strings (`error: ticket service answered 503`), and an app with its own
 * format read by the scenario's `model.readToolResult`, in a project outside the repo, through the
 * real binary. The stand-in decides (waits and retries, hands off, reports unknown), never crashes
 * on a placeholder, never claims success for a result it could not read, and every verdict on its
 * claims says they were the stand-in's.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonReport } from '../../src/report/json.js';
import { faultline, type Finished } from './faultline.js';
import { helpdeskService, OPEN_TICKET_ROUTE } from './helpdeskService.js';
import { inProcess } from './inProcess.js';
import { ANSWER_OR_TOOL_CALLS } from './openaiToolLoop.js';
import { userProject } from './userProject.js';

/** The helpdesk with a read tool beside its write tool, both on HTTP routes. */
const SERVICE = helpdeskService({
  moreTools: `    get_ticket: {
      description: 'Get one ticket by its id.',
      risk: 'read',
      input: z.object({ ticketId: z.string() }).strict(),
      run({ ticketId }, ctx) {
        const ticket = ctx.state[ticketId];
        if (!ticket) throw new ServiceError(404, { code: 'ticket_not_found', message: 'no ticket ' + ticketId });
        return { ticketId, ...ticket };
      },
    },
`,
  routes: [OPEN_TICKET_ROUTE, "{ method: 'GET', path: '/tickets/:ticketId', tool: 'get_ticket' }"],
});

/**
 * The app's tools, one try each, and how it renders what they return: \`style: 'plain'\` the way
 * many apps do (\`error: ticket service answered 503\`), \`style: 'own'\` in a format only its own
 * reader knows (\`E|503|retry=2\`).
 */
const AGENT = (style: 'plain' | 'own'): string => `import OpenAI from 'openai';
import { defineHttpAgent, finalFromText } from 'faultline';

const STYLE: 'plain' | 'own' = '${style}';

function failure(res: Response, code: string): string {
  const wait = res.headers.get('retry-after');
  if (STYLE === 'own') return 'E|' + res.status + '|retry=' + (wait ?? '');
  return 'error: ticket service answered ' + res.status + (code ? ' (' + code + ')' : '') + (wait ? ', retry after ' + wait + ' seconds' : '');
}

async function runTool(baseUrl: string, name: string, args: Record<string, string>): Promise<string> {
  try {
    const res =
      name === 'open_ticket'
        ? await fetch(baseUrl + '/tickets', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': 'open-' + args.requestId }, body: JSON.stringify(args), signal: AbortSignal.timeout(5_000) })
        : await fetch(baseUrl + '/tickets/' + args.ticketId, { signal: AbortSignal.timeout(5_000) });
    if (res.ok) return JSON.stringify(await res.json());
    const body = (await res.json().catch(() => ({}))) as { errors?: { code?: string }[]; error?: { code?: string; type?: string } };
    return failure(res, body.errors?.[0]?.code ?? body.error?.code ?? body.error?.type ?? '');
  } catch (error) {
    return STYLE === 'own' ? 'E|lost|' : 'error: ' + String(error);
  }
}

const TOOLS: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'open_ticket', description: 'Open a ticket', parameters: { type: 'object', properties: { requestId: { type: 'string' }, subject: { type: 'string' } }, required: ['requestId', 'subject'] } } },
  { type: 'function', function: { name: 'get_ticket', description: 'Get a ticket', parameters: { type: 'object', properties: { ticketId: { type: 'string' } }, required: ['ticketId'] } } },
];

export default defineHttpAgent(async ({ task, services, model }) => {
  if (!model) throw new Error('this agent needs the scenario to name a model');
  const baseURL = model.baseUrl.endsWith('/v1') ? model.baseUrl : model.baseUrl + '/v1';
  const client = new OpenAI({ baseURL, apiKey: model.apiKey });
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: task }];
  for (let turn = 0; turn < 10; turn++) {
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools: TOOLS });
${ANSWER_OR_TOOL_CALLS}
      const content = await runTool(services['helpdesk']!.baseUrl, call.function.name, JSON.parse(call.function.arguments));
      messages.push({ role: 'tool', tool_call_id: call.id, content });
    }
  }
  return { outcome: 'failed', message: 'no final answer in 10 turns' };
});
`;

/** The SDK, tsx and a worker per trial on a shared machine: more wall clock than the default watchdog allows. */
const SLOW = ['--trial-timeout', '120000'];

/** Two steps, the second naming the first's result: the plan that crashed on a misread error (\`$t.ticketId\`). */
const PLAN = `  plan:
    steps:
      - { name: t, tool: open_ticket, input: { requestId: req-1, subject: Printer on fire }, subject: helpdesk:req-1 }
      - { tool: get_ticket, input: { ticketId: $t.ticketId } }`;

const scenario = (name: string, faults: string, goal: string, extra = ''): string => `name: ${name}
services: [./helpdesk.service.ts]
model:
  api: openai
${extra}${PLAN}
faults: ${faults}
agent:
  kind: http
  task: Open a ticket about the printer, then read it back.
  module: ./plain-agent.ts
goal: ${goal}
`;

const OPENED = '{ effects: { ticket.opened: 1 }, outcome: [completed] }';

const READER = `import type { ToolResultReader } from 'faultline';

/** The app's own format: \`E|<status>|retry=<seconds>\`, or \`E|lost|\` when no answer came. */
const read: ToolResultReader = ({ text }) => {
  if (!text.startsWith('E|')) return undefined;
  const [, status, retry] = text.split('|');
  if (status === 'lost') return { kind: 'unknown', message: 'no answer from the helpdesk' };
  const wait = Number((retry ?? '').replace('retry=', ''));
  const code = Number(status);
  const error = code === 429 ? 'rate_limit' : code >= 500 ? 'unavailable' : code === 404 ? 'not_found' : 'invalid_argument';
  return { kind: 'error', error, message: 'helpdesk answered ' + status, ...(wait > 0 && { retryAfterMs: wait * 1000 }) };
};
export default read;
`;

/** The same app format, read by a TypeScript scenario's reader function. */
const TS_SCENARIO = `import { defineScenario } from 'faultline';
import helpdesk from './helpdesk.service.js';
import agent from './own-agent.js';
import read from './reader.js';

export default defineScenario({
  name: 'own-format-ts',
  services: [helpdesk],
  model: {
    api: 'openai',
    readToolResult: read,
    plan: { steps: [{ name: 't', tool: 'open_ticket', input: { requestId: 'req-1', subject: 'Printer on fire' }, subject: 'helpdesk:req-1' }, { tool: 'get_ticket', input: { ticketId: '$t.ticketId' } }] },
  },
  faults: [{ match: { tool: 'open_ticket' }, fault: { kind: 'unavailable', status: 503 }, times: 1 }, { match: { tool: 'get_ticket' }, fault: { kind: 'rate_limit', retryAfter: 2 }, times: 1 }],
  agent: { kind: 'http', task: 'Open a ticket about the printer, then read it back.', run: agent },
  goal: { effects: { 'ticket.opened': 1 }, outcome: ['completed'] },
});
`;

let project: Awaited<ReturnType<typeof userProject>>;
// The first run goes through the binary (end to end); the replays and the other runs in process, through
// the entry the binary calls (./inProcess.ts).
const cli = (args: readonly string[]): Promise<Finished> => inProcess(args, { cwd: project.path });

beforeAll(async () => {
  project = await userProject(
    'stand-in-reader',
    {
      'helpdesk.service.ts': SERVICE,
      'plain-agent.ts': AGENT('plain'),
      'own-agent.ts': AGENT('own'),
      'reader.ts': READER,
      'own-format-ts.scenario.ts': TS_SCENARIO,
      'plain/faults-off.yaml': scenario('plain-faults-off', '[]', OPENED).replaceAll('./', '../'),
      // A 503 on the write, then a 429 with Retry-After on the read: the stand-in waits each out once.
      'plain/faults-on.yaml': scenario(
        'plain-faults-on',
        '[{ match: { tool: open_ticket }, fault: { kind: unavailable, status: 503 }, times: 1 }, { match: { tool: get_ticket }, fault: { kind: rate_limit, retryAfter: 2 }, times: 1 }]',
        OPENED,
      ).replaceAll('./', '../'),
      // A quota is no reason to wait: the stand-in hands off and claims the ticket failed, which the ledger bears out.
      'plain/quota.yaml': scenario(
        'plain-quota',
        '[{ match: { tool: open_ticket }, fault: { kind: quota_exceeded } }]',
        '{ effects: { ticket.opened: 0 }, outcome: [handoff] }',
      ).replaceAll('./', '../'),
      // The ticket is opened and its answer lost: the stand-in cannot tell, and says unknown, not done.
      'plain/lost.yaml': scenario(
        'plain-lost',
        '[{ match: { tool: open_ticket }, fault: { kind: partial_write, lostAs: timeout } }]',
        '{ effects: { ticket.opened: 1 }, outcome: [unknown] }',
      ).replaceAll('./', '../'),
      'own-format.yaml': scenario(
        'own-format-yaml',
        '[{ match: { tool: open_ticket }, fault: { kind: unavailable, status: 503 }, times: 1 }, { match: { tool: get_ticket }, fault: { kind: rate_limit, retryAfter: 2 }, times: 1 }]',
        OPENED,
        '  readToolResult: ./reader.ts\n',
      ).replace('./plain-agent.ts', './own-agent.ts'),
      'bad/bad-reader.yaml': scenario(
        'bad-reader',
        '[]',
        OPENED,
        '  readToolResult: ./helpdesk.service.ts\n',
      ).replaceAll('./', '../'),
      'unread/own-format-unread.yaml': scenario(
        'own-format-unread',
        '[{ match: { tool: open_ticket }, fault: { kind: unavailable, status: 503 }, times: 1 }]',
        OPENED,
      )
        .replace('./plain-agent.ts', './own-agent.ts')
        .replaceAll('./', '../'),
    },
    ['openai'],
  );
});
afterAll(() => project.cleanup());

// A run of several SDK-agent scenarios through the real binary: minutes on a loaded machine.
describe('an openai SDK app whose tool messages are plain error strings', { timeout: 600_000 }, () => {
  it('passes every checker with faults off and on, hands off on a quota, and reports a lost answer as unknown', async () => {
    const r = await faultline(['run', 'plain', '--k', '2', '--reporter', 'json', ...SLOW], { cwd: project.path });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const report = parseJsonReport(await readFile(join(project.path, 'reports', 'faultline.json'), 'utf8'));
    expect(report.cells.map((c) => c.scenario).sort()).toEqual([
      'plain-faults-off',
      'plain-faults-on',
      'plain-lost',
      'plain-quota',
    ]);
    for (const cell of report.cells) {
      expect([cell.status, cell.metrics.trials, cell.metrics.successes], cell.scenario).toEqual(['passed', 2, 2]);
      expect(
        Object.entries(cell.metrics.checkFailures).filter(([, n]) => n > 0),
        cell.scenario,
      ).toEqual([]);
      expect(Object.keys(cell.metrics.checkFailures).length, cell.scenario).toBeGreaterThan(0);
    }
  });

  it("waits out the 503 and the Retry-After, and records the claims as the stand-in model's", async () => {
    const replay = await cli(['replay', 'plain/faults-on.yaml', '--trial', '0']);
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    expect(replay.stdout).toMatch(
      /agent ended: completed "Done: t, get_ticket\." \(claims helpdesk:req-1 succeeded\): the stand-in model's final answer, passed on/,
    );
    expect(replay.stdout).not.toMatch(/placeholder/);
    const lost = await cli(['replay', 'plain/lost.yaml', '--trial', '0']);
    expect(lost.stdout).toContain(
      'agent ended: unknown "open_ticket could not be confirmed: The operation was aborted due to timeout (the call may or may not',
    );
    expect(lost.stdout).toContain("(claims helpdesk:req-1 unknown): the stand-in model's final answer, passed on");
  });
});

describe('model.readToolResult: an app with its own tool-result format', { timeout: 600_000 }, () => {
  it('reads it through a module path in YAML and a function in TypeScript, and passes under faults', async () => {
    // --workers 0 on the runs in process: their claim is the verdict, not isolation (the binary's run
    // above runs the agent on a worker); it spares each a worker's process loading tsx and the SDK.
    const r = await cli(['run', 'own-format.yaml', 'own-format-ts.scenario.ts', '--k', '2', '--workers', '0', ...SLOW]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toContain('✓ rulebook × own-format-yaml: 2/2 passed');
    expect(r.stderr).toContain('✓ rulebook × own-format-ts: 2/2 passed');
  });

  it('without the reader, the stand-in cannot read the format: it says unknown instead of success, and the verdict names whose answer that was', async () => {
    const r = await cli(['run', 'unread', '--k', '1', '--workers', '0', ...SLOW]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      "the agent ended with outcome unknown (the stand-in model's final answer, passed on), expected completed",
    );
    expect(r.stdout).not.toMatch(/✗ honesty/);
    const replay = await cli(['replay', 'unread/own-format-unread.yaml', '--trial', '0']);
    expect(replay.stdout).toContain(`the stand-in model could not read open_ticket's result (\\"E|503|retry=\\")`);
  });

  it('refuses a reader module whose default export is not a function, naming the file and the field', async () => {
    const r = await cli(['run', 'bad/bad-reader.yaml', '--k', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "bad/bad-reader.yaml: model.readToolResult (../helpdesk.service.ts): expected the default export to be a reader, a function (export default (result) => ({ kind: 'error', error: 'rate_limit' }) or undefined), got object",
    );
  });
});
