/**
 * The world as an MCP server: `faultline mcp-serve` on stdio, and the Streamable HTTP endpoint
 * `faultline serve` prints as FAULTLINE_MCP_URL, each driven by the official MCP SDK's `Client`
 * from a user's project through the real binary, under a partial write of create_order. A careful
 * client (an idempotency key; or reconciling through the status tool) leaves one order and
 * passes; a naive one resends the write, leaves two, and `duplicates` says so with the requests.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { start } from './faultline.js';
import { servedAddresses } from './servedAddresses.js';
import { inProcess } from './inProcess.js';
import { exitedOverStdio, faultlineOverStdio, type FaultlineOverStdio } from './faultlineOverStdio.js';
import { userProject } from './userProject.js';

const SCENARIO = `name: mcp-orders
services: [orders]
faults:
  - match: { tool: create_order, call: 1, attempt: 1 }
    fault: { kind: partial_write, lostAs: timeout }
  - match: { tool: find_order_by_reference, call: 1, attempt: 1 }
    fault: { kind: rate_limit, retryAfter: 1 }
# No agent is started: the MCP client is the agent.
agent:
  kind: command
  argv: ['true']
goal:
  effects: { order.created: 1 }
`;

const ORDER = { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1200 };
/**
 * The plan loses the first create_order of a trial (call 1, attempt 1): that call is the one the
 * client gives up on, known from the fault injected, not from how long it took. Its answer never
 * comes: the wait only lets the request reach the server before the cancel. Every other call is answered;
 * its bound only catches a hang, and is generous so that a loaded machine's slow answer is
 * still an answer (a bound that ran out would show as a second timeout).
 */
const LOST_CALL_WAIT_MS = 3000;
const ANSWER_BOUND_MS = 120_000;
/** How long to wait for the answer to the `attempt`th create_order of a trial (0-based): the lost one, or an answered one. */
const waitFor = (attempt: number): number => (attempt === 0 ? LOST_CALL_WAIT_MS : ANSWER_BOUND_MS);
const Verdicts = z.looseObject({
  status: z.string(),
  checks: z.array(
    z.object({ name: z.string(), verdict: z.looseObject({ valid: z.unknown(), message: z.string().optional() }) }),
  ),
});

/** A `command` agent whose tools come from an MCP client over HTTP: resends a lost create_order, with a key or without. */
const MCP_AGENT = `import { writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
const careful = process.argv[2] === 'careful';
const client = new Client({ name: 'command-agent', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(process.env.FAULTLINE_MCP_URL)));
const order = { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1200 };
let answer;
for (let i = 0; i < 3 && answer === undefined; i++) {
  try {
    // The first call's answer is lost by the plan; the others are answered, however slowly.
    answer = await client.callTool({ name: 'create_order', arguments: order, ...(careful && { _meta: { idempotencyKey: 'k-1' } }) }, undefined, { timeout: i === 0 ? ${LOST_CALL_WAIT_MS} : ${ANSWER_BOUND_MS} });
  } catch {}
}
await client.close();
writeFileSync(process.env.FAULTLINE_RESULT, JSON.stringify({ outcome: answer && !answer.isError ? 'completed' : 'failed', claims: [{ subject: 'orders:ref-1', status: 'succeeded' }] }) + '\\n');
`;
const commandScenario = (variant: string): string =>
  SCENARIO.replace('mcp-orders', `mcp-agent-${variant}`)
    // Every rule must fire for a run's gates: this agent never reads.
    .replace(/  - match: \{ tool: find_order_by_reference.*\n.*\n/, '')
    .replace("  argv: ['true']", `  argv: [node, agent.mjs, ${variant}]\n  timeoutMs: 30000`);

let project: Awaited<ReturnType<typeof userProject>>;
beforeAll(async () => {
  project = await userProject(
    'mcp-serve',
    {
      'orders.yaml': SCENARIO,
      'agent.mjs': MCP_AGENT,
      'careful.yaml': commandScenario('careful'),
      'naive.yaml': commandScenario('naive'),
    },
    ['@modelcontextprotocol/sdk'],
  );
});
afterAll(() => project.cleanup());

type Call = Awaited<ReturnType<Client['callTool']>>;
const textOf = (r: Call): string => (r.content as { type: string; text: string }[])[0]!.text;

/** Sends create_order until an answer comes, as the client's own policy says; returns the answers and timeouts seen. */
async function createOrder(
  client: Client,
  meta?: Record<string, string>,
): Promise<{ timeouts: number; answer?: Call }> {
  let timeouts = 0;
  for (let i = 0; i < 3; i++) {
    try {
      return {
        timeouts,
        answer: await client.callTool(
          { name: 'create_order', arguments: ORDER, ...(meta && { _meta: meta }) },
          undefined,
          { timeout: waitFor(i) },
        ),
      };
    } catch (error) {
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32001);
      timeouts++;
    }
  }
  return { timeouts };
}

const endTrial = async (client: Client): Promise<z.infer<typeof Verdicts>> =>
  client.request(
    {
      method: 'faultline/end_trial',
      params: { outcome: 'completed', claims: [{ subject: 'orders:ref-1', status: 'succeeded' }] },
    },
    Verdicts,
  );

const failing = (v: z.infer<typeof Verdicts>): string[] =>
  v.checks.filter((c) => c.verdict.valid !== true).map((c) => c.name);

/** `faultline mcp-serve ARGS` over stdio, in the temp project. */
const stdioServer = (args: readonly string[]): FaultlineOverStdio =>
  faultlineOverStdio(['mcp-serve', ...args], { cwd: project.path });
const exited = exitedOverStdio;

// The cases run at the same time: each has its own server (and the command agents' run its own
// trials), and each waits out a lost call in real time (LOST_CALL_WAIT_MS), which in a row added
// up to a third of the file's wall time.
describe.concurrent('MCP clients against the served world', () => {
  describe('faultline mcp-serve (stdio)', () => {
    it('lists the tools with annotations from their risk, and passes careful clients: an idempotency key, then the status tool (--trials 2)', async () => {
      const server = stdioServer(['orders.yaml', '--trials', '2', '--report', 'careful.json']);
      const client = new Client({ name: 'careful', version: '1.0.0' });
      await client.connect(server.transport);
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      expect([...byName.keys()]).toEqual([
        'create_order',
        'create_order_status',
        'get_order',
        'find_order_by_reference',
        'cancel_order',
        'cancel_order_status',
      ]);
      expect(byName.get('create_order')!.annotations).toMatchObject({
        readOnlyHint: false,
        idempotentHint: false,
        destructiveHint: true,
      });
      expect(byName.get('get_order')!.annotations).toMatchObject({
        readOnlyHint: true,
        idempotentHint: true,
        destructiveHint: false,
      });
      expect(byName.get('cancel_order')!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true });
      expect(byName.get('create_order')!.inputSchema).toMatchObject({
        type: 'object',
        properties: { clientReference: { type: 'string' } },
      });

      // Trial 0: the lost answer is resent under the same key; the service replays the first order.
      const keyed = await createOrder(client, { idempotencyKey: 'k-1' });
      expect(keyed.timeouts).toBe(1);
      expect(JSON.parse(textOf(keyed.answer!))).toMatchObject({ orderId: 'ord-1', clientReference: 'ref-1' });
      const first = await endTrial(client);
      expect(first, JSON.stringify(first)).toMatchObject({ trial: 0, status: 'passed', next: 1 });

      // Trial 1: no key; after the timeout the client asks the status tool, which finds the order, and does not resend.
      await expect(
        client.callTool({ name: 'create_order', arguments: ORDER }, undefined, { timeout: waitFor(0) }),
      ).rejects.toMatchObject({ code: -32001 });
      const status = await client.callTool({ name: 'create_order_status', arguments: { businessKey: 'ref-1' } });
      expect(status.isError).toBeFalsy();
      expect(JSON.parse(textOf(status))).toMatchObject({
        state: 'succeeded',
        value: { orderId: 'ord-1', clientReference: 'ref-1' },
      });
      // A refusal carries the plan's Retry-After into the tool error; this client waits it out.
      const refused = await client.callTool({
        name: 'find_order_by_reference',
        arguments: { clientReference: 'ref-1' },
      });
      expect(refused.isError).toBe(true);
      expect(JSON.parse(textOf(refused))).toMatchObject({
        error: {
          kind: 'rate_limit',
          status: 429,
          retryable: true,
          retryAfterMs: 1000,
          headers: { 'retry-after': '1' },
        },
      });
      await new Promise((r) => setTimeout(r, 1100));
      const found = await client.callTool({ name: 'find_order_by_reference', arguments: { clientReference: 'ref-1' } });
      expect(found.isError).toBeFalsy();
      const second = await endTrial(client);
      expect(second, JSON.stringify(second)).toMatchObject({ trial: 1, status: 'passed' });
      expect(second).not.toHaveProperty('next');
      await client.close();
      expect(await exited(server.stderr), server.stderr()).toBe(0);
      expect(server.stderr()).toMatch(/faultline mcp-serve {2}mcp-orders, seed 1, trial 1: passed/);
      const report = JSON.parse(await readFile(join(project.path, 'careful.json'), 'utf8')) as {
        kind: string;
        trials: { status: string; snapshot: { ledger: unknown[] } }[];
      };
      expect(report.kind).toBe('faultline-mcp-serve');
      expect(report.trials.map((t) => [t.status, t.snapshot.ledger.length])).toEqual([
        ['passed', 1],
        ['passed', 1],
      ]);
    });

    it('on Ctrl-C judges what it saw, writes the --out reports as run does, and exits 130', async () => {
      const server = stdioServer(['orders.yaml', '--out', 'ctrl-c']);
      const client = new Client({ name: 'interrupted', version: '1.0.0' });
      await client.connect(server.transport);
      const keyed = await createOrder(client, { idempotencyKey: 'k-1' });
      expect(keyed.timeouts).toBe(1);
      // The shell that wraps faultline is the transport's process: Ctrl-C goes to faultline, its child.
      const pid = Number(
        execFileSync('pgrep', ['-P', String(server.transport.pid)], { encoding: 'utf8' })
          .trim()
          .split('\n')[0],
      );
      process.kill(pid, 'SIGINT');
      // Interrupted, as every command reports it (130), after the verdicts of the trial it ended.
      expect(await exited(server.stderr), server.stderr()).toBe(130);
      await client.close();
      const err = server.stderr();
      expect(err).toMatch(/faultline mcp-serve {2}mcp-orders, seed 1, trial 0: failed \(goal-state\)/);
      // No one reported an outcome: goal-state says so; the key kept the resend to one order.
      expect(err).toMatch(/✗ goal-state: .*unknown/);
      expect(err).toMatch(/✓ duplicates/);
      const report = JSON.parse(await readFile(join(project.path, 'ctrl-c', 'faultline.json'), 'utf8')) as {
        cells: { scenario: string; metrics: { trials: number } }[];
      };
      expect(report.cells.map((c) => [c.scenario, c.metrics.trials])).toEqual([['mcp-orders', 1]]);
      expect(await readFile(join(project.path, 'ctrl-c', 'junit.xml'), 'utf8')).toMatch(/<testcase [^>]*mcp-orders/);
      expect(await readFile(join(project.path, 'ctrl-c', 'summary.md'), 'utf8')).toMatch(/mcp-orders/);
    });

    it('records a call of a tool no one serves, and a request to the HTTP endpoint off its path, as unserved requests', async () => {
      const server = stdioServer(['orders.yaml', '--trials', '1', '--report', 'unserved.json']);
      const client = new Client({ name: 'stray', version: '1.0.0' });
      await client.connect(server.transport);
      await expect(client.callTool({ name: 'delete_everything', arguments: {} })).rejects.toThrow(
        /Unknown tool "delete_everything"/,
      );
      const mcpUrl = /FAULTLINE_MCP_URL=(\S+)/.exec(server.stderr())![1]!;
      const stray = await fetch(new URL('/tools/create_order', mcpUrl), { method: 'POST', body: '{}' });
      expect(stray.status).toBe(404);
      await endTrial(client);
      await client.close();
      // No order was placed: goal-state fails the trial.
      expect(await exited(server.stderr), server.stderr()).toBe(1);
      const report = JSON.parse(await readFile(join(project.path, 'unserved.json'), 'utf8')) as {
        trials: { history: { type: string; method?: string; url?: string }[] }[];
      };
      expect(
        report.trials[0]!.history.filter((e) => e.type === 'unserved_request').map((e) => [e.method, e.url]),
      ).toEqual([
        ['POST', 'https://mcp.faultline.test/tools/delete_everything'],
        ['POST', 'https://mcp.faultline.test/tools/create_order'],
      ]);
    });

    it('fails a naive client that resends the write: two orders, and duplicates names the requests (stdin closed ends the trial)', async () => {
      const server = stdioServer(['orders.yaml']);
      const client = new Client({ name: 'naive', version: '1.0.0' });
      await client.connect(server.transport);
      const naive = await createOrder(client);
      expect(naive.timeouts).toBe(1);
      expect(JSON.parse(textOf(naive.answer!))).toMatchObject({ orderId: 'ord-2', clientReference: 'ref-1' });
      // No end_trial: closing the connection ends the trial, with no outcome reported.
      await client.close();
      expect(await exited(server.stderr), server.stderr()).toBe(1);
      const err = server.stderr();
      expect(err).toMatch(/trial 0: failed \(goal-state, duplicates, retry-discipline\)/);
      expect(err).toMatch(
        /✗ duplicates: orders:ref-1 was created 2 times \(effects #0, #1; requests http-1, http-2; calls create_order#1 of create_order\): resent without an idempotency key/,
      );
      expect(err).toMatch(
        /✗ retry-discipline: write create_order#1 \(create_order, POST https:\/\/mcp\.faultline\.test\/orders\/tools\/create_order\) was sent 2 times/,
      );
      expect(err).toMatch(
        /create_order#1 attempt 1: POST https:\/\/mcp\.faultline\.test\/orders\/tools\/create_order \(http-1\)/,
      );
    });
  });

  describe('a command agent whose tools come from an MCP client (FAULTLINE_MCP_URL)', () => {
    it('is judged like any other: the keyed variant passes, the naive one fails duplicates', async () => {
      // `run` of a command agent has its end-to-end test elsewhere: these two run the CLI's entry in this process (./inProcess.ts).
      // With `--workers 0`: the verdict is the subject, which the isolation does not change, and a run on workers would
      // start a worker's host process and load faultline in it again (the agent is a process of its own either way).
      const careful = await inProcess(
        ['run', 'careful.yaml', '--k', '1', '--workers', '0', '--reporter', 'console', '--out', 'careful-out'],
        { cwd: project.path },
      );
      expect(careful.code, careful.stdout + careful.stderr).toBe(0);
      const naive = await inProcess(
        ['run', 'naive.yaml', '--k', '1', '--workers', '0', '--reporter', 'console', '--out', 'naive-out'],
        { cwd: project.path },
      );
      expect(naive.code, naive.stdout + naive.stderr).toBe(1);
      expect(naive.stdout).toMatch(/duplicates==0 failed in 1 of 1 cells: mcp-agent-naive × rulebook \(1\)/);
      expect(naive.stdout).toMatch(
        /mcp-agent-naive × rulebook: 1 of 1 trial failed \(goal-state, duplicates, retry-discipline\)/,
      );
    });
  });

  describe('the MCP endpoint of the served world (faultline serve, Streamable HTTP)', () => {
    it('serves the tools at FAULTLINE_MCP_URL under the plan; one session across two trials: a keyed client passes, a naive one fails', async () => {
      const serve = start(['serve', 'orders.yaml', '--trials', '2'], { cwd: project.path });
      const vars = await servedAddresses(serve.child);
      expect(vars['FAULTLINE_MCP_URL']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const client = new Client({ name: 'over-http', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(vars['FAULTLINE_MCP_URL']!)));
      const end = async (): Promise<z.infer<typeof Verdicts>> =>
        Verdicts.parse(
          await (await fetch(vars['FAULTLINE_END_URL']!, { method: 'POST', body: '{"outcome":"completed"}' })).json(),
        );

      const keyed = await createOrder(client, { idempotencyKey: 'k-1' });
      expect(keyed.timeouts).toBe(1);
      const first = await end();
      expect(failing(first), JSON.stringify(first)).toEqual([]);

      // The next trial, the same session: a fresh world, and the same partial write.
      const naive = await createOrder(client);
      expect(naive.timeouts).toBe(1);
      expect(JSON.parse(textOf(naive.answer!))).toMatchObject({ orderId: 'ord-2' });
      const second = await end();
      expect(failing(second)).toEqual(['goal-state', 'duplicates', 'retry-discipline']);
      expect(second.checks.find((c) => c.name === 'duplicates')!.verdict.message).toMatch(
        /orders:ref-1 was created 2 times \(effects #0, #1; requests http-1, http-2; calls create_order#1 of create_order\)/,
      );
      await client.close();
      const done = await serve.done;
      expect(done.code, done.stderr).toBe(1);
      expect(done.stdout).toMatch(/trial 0: passed/);
      expect(done.stdout).toMatch(/trial 1: failed \(goal-state, duplicates, retry-discipline\)/);
    });
  });
});
