/**
 * Issue 43's items that were fixed and tested below the CLI only: one case each through the CLI's
 * entry in this process (./inProcess.ts, the compiled code the binary runs), from a temp
 * project, asserting the exit code and what the user reads. The item's number is in each name.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start } from './faultline.js';
import { inProcess } from './inProcess.js';
import { httpAgentOpensTicket, OPEN_TICKET_PLAN, PRINTER_TASK } from './ticketScenario.js';
import { userProject } from './userProject.js';

let project: Awaited<ReturnType<typeof userProject>>;
beforeAll(async () => {
  project = await userProject('seams43', {
    'resend.agent.ts': chatAgent(true),
    'plain.agent.ts': chatAgent(false),
  });
});
afterAll(() => project.cleanup());

const cli = (args: readonly string[]) => inProcess(args, { cwd: project.path });
const write = (name: string, text: string) => writeFile(join(project.path, name), text);

const STEP =
  '      - name: order\n        tool: create_order\n' +
  '        input: { clientReference: ref-1, item: book, quantity: 1, amountCents: 1500 }\n';
/** A scripted scenario creating one order, with `extra` top-level YAML before its agent. */
const scripted = (name: string, extra = '', agentExtra = ''): string =>
  `name: ${name}\n${extra}agent:\n  kind: scripted\n${agentExtra}  task: Create order ref-1\n  plan:\n    steps:\n${STEP}`;

const EXAMPLES = fileURLToPath(new URL('../../scenarios/examples/', import.meta.url));

/**
 * A user's agent on the OpenAI Chat Completions wire, with fetch: an answer that is not 200 becomes
 * the text `[API ERROR] HTTP <status>` (as some frameworks put it), and a reply without tool calls
 * is read with `finalFromText(content ?? '')`. `resend`: on its final answer it starts that request
 * over (as after a cut answer), with another temperature: not byte for byte the request the stand-in
 * already answered, so the scripted model itself is asked again, and it completes only on the same
 * answer.
 */
const chatAgent = (resend: boolean): string => `import { defineHttpAgent, finalFromText } from 'faultline';
import { OPEN_TICKET_DESCRIPTION, OPEN_TICKET_SCHEMA, runTool } from '${EXAMPLES}sdk-agents/code/helpdeskTools.ts';

type Message = { role: string; content?: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[] };

export default defineHttpAgent(async ({ task, services, model }) => {
  const tools = [{ type: 'function', function: { name: 'open_ticket', description: OPEN_TICKET_DESCRIPTION, parameters: OPEN_TICKET_SCHEMA } }];
  const ask = (messages: unknown[], temperature = 1) =>
    fetch(model!.baseUrl + '/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + model!.apiKey },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages, tools, temperature }),
    });
  const messages: unknown[] = [{ role: 'user', content: task }];
  for (let turn = 0; turn < 6; turn++) {
    const res = await ask(messages);
    const message: Message = res.ok ? (await res.json()).choices[0].message : { role: 'assistant', content: '[API ERROR] HTTP ' + res.status };
    const calls = message.tool_calls ?? [];
    if (calls.length === 0) {
      if (${resend}) {
        const again = await ask(messages, 0);
        if (!again.ok) return { outcome: 'failed', message: 'the same conversation again was answered ' + again.status };
        if ((await again.json()).choices[0].message.content !== message.content) return { outcome: 'failed', message: 'another answer' };
      }
      const final = finalFromText(message.content ?? '');
      return final.kind === 'final' ? { outcome: final.outcome, message: final.message, claims: final.claims } : { outcome: 'unknown' };
    }
    messages.push(message);
    for (const call of calls)
      messages.push({ role: 'tool', tool_call_id: call.id, content: await runTool(services['helpdesk']!.baseUrl, call.function.name, JSON.parse(call.function.arguments)) });
  }
  return { outcome: 'failed' };
});
`;

/** The helpdesk scenario with the stand-in model scripted to open the ticket, under `faults`, run by `module`. */
const chatScenario = (name: string, module: string, faults: string): string => `name: ${name}
services: [${EXAMPLES}helpdesk/code/helpdesk.service.ts]
model:
  api: openai
${OPEN_TICKET_PLAN}faults: ${faults}
${httpAgentOpensTicket(module, PRINTER_TASK)}`;

describe('issue 43, through the CLI', () => {
  it('#18: run --help says what --workers 0 gives up', async () => {
    const r = await cli(['run', '--help']);
    expect(r.code).toBe(0);
    const help = r.stdout.replace(/\s+/g, ' ');
    expect(help).toContain('0: one after the other in one process');
    expect(help).toContain('without isolation');
    expect(help).toContain('an exhausted heap or a native crash ends the run');
  });

  it('#50: http: on a scripted agent is refused at load, exit 2, naming the file and the key', async () => {
    await write('http-scripted.yaml', scripted('http-scripted', 'http: { adapter: nock }\n'));
    const r = await cli(['run', 'http-scripted.yaml', '--k', '1', '--out', 'out-50']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('http-scripted.yaml');
    expect(r.stderr).toMatch(/http: sets how an "http" or "command" agent's HTTP calls are met/);
    expect(r.stderr).toContain('agent.kind is "scripted"');
  });

  it('#38: arrival uniform over 1e308 ms is refused at load (exit 2), not drawn forever', async () => {
    await write('arrival.yaml', scripted('arrival', 'agents: 2\narrival: { kind: uniform, overMs: 1e308 }\n'));
    const r = await cli(['run', 'arrival.yaml', '--k', '1', '--out', 'out-38']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('arrival.yaml');
    expect(r.stderr).toMatch(/arrival\.overMs: expected at most 9007199254740991 ms/);
  });

  it('#36: an mcp-proxy plan with a __proto__ key is refused (exit 2), naming the file and the path in it', async () => {
    // .yaml is read as a scenario file is; a plan of another name is read as YAML by the plan's own reader.
    for (const file of ['plan.yaml', 'plan.faults']) {
      await write(file, '- match: { tool: add_note }\n  fault: { __proto__: { kind: timeout } }\n');
      const r = await cli(['mcp-proxy', '--plan', file, '--report', 'out-36/proxy.json', '--', 'true']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${file}: [0].fault.__proto__: the key "__proto__" is not allowed`);
    }
  });

  it('#35: merge of a shard report with a cell outside the run is refused (exit 2), naming that file', async () => {
    await write('shard-a.yaml', scripted('shard-a'));
    await write('shard-b.yaml', scripted('shard-b'));
    for (const i of [1, 2]) {
      const r = await cli([
        'run',
        'shard-a.yaml',
        'shard-b.yaml',
        '--k',
        '2',
        '--shard',
        `${i}/2`,
        '--out',
        `shard-${i}`,
      ]);
      // A shard alone holds pass^k n/a, which the default gate fails (exit 1); it wrote its report.
      expect(r.code, r.stdout + r.stderr).toBeLessThan(2);
    }
    const file = join(project.path, 'shard-2', 'faultline.json');
    const report = JSON.parse(await readFile(file, 'utf8')) as { cells: { scenario: string }[] };
    expect(report.cells.length).toBeGreaterThan(0);
    report.cells[0]!.scenario = 'x-foreign';
    await writeFile(file, JSON.stringify(report));
    const merged = await cli(['merge', 'shard-1/faultline.json', 'shard-2/faultline.json', '--out', 'merged']);
    expect(merged.code).toBe(2);
    expect(merged.stderr).toMatch(/shard-2\/faultline\.json: a cell x-foreign × \S+ outside its own matrix/);
  });

  it('#22: a wrong_value path no declared answer has is refused at load (exit 2), naming the file and the path', async () => {
    await write(
      'shop.service.ts',
      `import { defineService, z } from 'faultline';
const Order = z.object({ status: z.enum(['open', 'paid']), note: z.string() });
export default defineService({
  name: 'shop',
  state: {},
  tools: {
    get_order: { description: 'One order.', risk: 'read', input: z.object({}).strict(), output: Order, run: () => ({ status: 'paid' as const, note: 'n' }) },
  },
});
`,
    );
    const lie = (name: string, path: string) =>
      `name: ${name}\nservices: [./shop.service.ts]\nfaults:\n  - match: { tool: get_order }\n` +
      `    fault: { kind: wrong_value, path: ${path} }\nagent:\n  kind: scripted\n  task: Read the order\n` +
      `  plan:\n    steps:\n      - { name: read, tool: get_order, input: {} }\n`;
    await write('lie-bad.yaml', lie('lie-bad', 'no.such.field'));
    const r = await cli(['run', 'lie-bad.yaml', '--k', '1', '--out', 'out-22']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('lie-bad.yaml');
    expect(r.stderr).toContain(
      'faults[0].fault.path: "no.such.field": no answer of "get_order" has that field by its declared output',
    );
    // A path the output declares loads and runs: with `--workers 0`, as the cases below, since it is the run's end that
    // is the subject, which the isolation does not change, and a run on workers would start a worker's host process and
    // load faultline and the service's module in it again.
    await write('lie-good.yaml', lie('lie-good', 'status'));
    const good = await cli(['run', 'lie-good.yaml', '--k', '1', '--workers', '0', '--out', 'out-22-good']);
    expect(good.code, good.stdout + good.stderr).toBeLessThan(2);
  });

  it('#37: a command agent with timeoutMs 1e10 runs to its end, not judged hung at once, with no TimeoutOverflowWarning', async () => {
    await write(
      'long-timeout.yaml',
      'name: long-timeout\nagent:\n  kind: command\n  task: Wait a little\n' +
        "  argv: [sh, -c, 'sleep 0.3']\n  timeoutMs: 10000000000\n",
    );
    const warnings: string[] = [];
    const onWarning = (w: Error): number => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const r = await cli(['run', 'long-timeout.yaml', '--k', '1', '--out', 'out-37']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/✓ long-timeout .* 1\/1 /);
      expect(r.stdout + r.stderr).not.toMatch(/timed out|hung|timeoutMs/);
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('TimeoutOverflowWarning');
  });

  // The one case on the binary: serve is long-lived and prints its addresses while it runs, which
  // the in-process entry shows only once it has ended.
  it('#42: serve takes a scenario without an agent block: it serves, and a trial ends on its end URL', async () => {
    await write('world.yaml', 'name: no-agent\nservices: [orders]\n');
    const serve = start(['serve', 'world.yaml', '--trials', '1'], { cwd: project.path });
    const endUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      serve.child.stdout!.on('data', (d: Buffer) => {
        out += d.toString('utf8');
        const m = /FAULTLINE_END_URL=(\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      serve.child.once('close', () => reject(new Error(`serve ended before printing its addresses:\n${out}`)));
    });
    const ended = await fetch(endUrl, {
      method: 'POST',
      body: '{"outcome":"completed"}',
    });
    expect(ended.status).toBe(200);
    const r = await serve.done;
    expect(r.stderr).not.toMatch(/agent/);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('FAULTLINE_ORDERS_URL=http://127.0.0.1:');
    expect(r.stdout).toContain('no-agent, seed 1, trial 0: passed');
    // What happened (the world served to a client), not that a command agent ran (issue 43, seen at stop 50).
    expect(r.stdout).not.toContain('(a command agent)');
    expect(r.stdout).toContain(
      'real time: no-agent was served on the wall clock to clients outside faultline (no agent of the scenario was started)',
    );
  });

  it('#6: the same conversation sent again after the final answer is answered from the script, not a 500', async () => {
    await write('resend.yaml', chatScenario('resend', './resend.agent.ts', '[]'));
    const r = await cli(['run', 'resend.yaml', '--k', '1', '--workers', '0', '--out', 'out-6']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain('rulebook × resend: 1/1 passed');
  });

  it("#43: an agent reading finalFromText(content ?? '') is not reported completed on an empty or [API ERROR] answer", async () => {
    const last = (fault: string) =>
      `\n  - { match: { tool: model:openai.chat.completions, call: 2 }, fault: ${fault}, times: 1 }`;
    await write('empty-answer.yaml', chatScenario('empty-answer', './plain.agent.ts', last('{ kind: empty_text }')));
    await write(
      'error-answer.yaml',
      chatScenario('error-answer', './plain.agent.ts', last('{ kind: unavailable, status: 500 }')),
    );
    const r = await cli([
      'run',
      'empty-answer.yaml',
      'error-answer.yaml',
      '--k',
      '1',
      '--workers',
      '0',
      '--out',
      'out-43',
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain(
      'empty-answer × rulebook: 1 of 1 trial failed (goal-state)\n      trial 0: goal-state: the agent ended with ' +
        'outcome unknown, expected completed; the agent said: "the model\'s answer was empty: no final answer to read"',
    );
    expect(r.stdout).toContain(
      'error-answer × rulebook: 1 of 1 trial failed (goal-state)\n      trial 0: goal-state: the agent ended with ' +
        'outcome unknown, expected completed; the agent said: "the model\'s answer is an error, not a final answer: [API ERROR] HTTP 500"',
    );
  });

  it('#44: an empty lie on a model route is shown in the console verdict where the told and the true answers differ', async () => {
    const lie = '\n  - { match: { tool: model:openai.chat.completions, call: 2 }, fault: { kind: empty }, times: 1 }';
    await write('model-lie.yaml', chatScenario('model-lie', './plain.agent.ts', lie));
    const r = await cli(['run', 'model-lie.yaml', '--k', '1', '--workers', '0', '--out', 'out-44']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const line = r.stdout.split('\n').find((l) => l.includes('the agent was told a lie')) ?? '';
    // Both shown texts start past their common head (the id, the model's name), where the list was emptied.
    expect(line).toMatch(
      /a read answered empty: model:openai\.chat\.completions http-3 at t=0ms answered …[^ ]*"choices":\[\],.* while the world held …[^ ]*"choices":\[\{"index":0,"message":/,
    );
  });
});
