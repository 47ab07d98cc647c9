/**
 * Issue 27: `serve` and `mcp-serve` read faultline.config.ts's `defaults`. A scenario that names
 * no services (nor budget) is served with the config's, through the real binary in a user's
 * project; the config's agents matrix plays no part (the client is the agent), so it is served once.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { start } from './faultline.js';
import { exitedOverStdio, faultlineOverStdio } from './faultlineOverStdio.js';
import { userProject } from './userProject.js';

const run = promisify(execFile);

// One attempt per call: a resend of the lost write, even under its key, breaks the default budget.
const CONFIG = `import { defineConfig } from 'faultline';

const order = { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1200 };

export default defineConfig({
  defaults: { services: ['orders'], budget: { maxAttemptsPerCall: 1 } },
  agents: [
    { name: 'careful', kind: 'scripted', behaviour: 'careful', plan: { steps: [{ tool: 'create_order', input: order, subject: 'orders:ref-1' }] } },
    { name: 'shell', kind: 'command', argv: ['true'] },
  ],
});
`;

// No services, budget or agent code of its own.
const SCENARIO = `name: served-orders
faults:
  - match: { tool: create_order, attempt: 1 }
    fault: { kind: partial_write, lostAs: network }
agent: { task: Create order ref-1 }
goal:
  effects: { order.created: 1 }
`;

const ORDER = '{"clientReference":"ref-1","item":"book","quantity":1,"amountCents":1200}';
const CLAIMS = { outcome: 'completed', claims: [{ subject: 'orders:ref-1', status: 'succeeded' }] };

let project: Awaited<ReturnType<typeof userProject>>;
beforeAll(async () => {
  project = await userProject('serve-defaults', { 'faultline.config.ts': CONFIG, 'orders.yaml': SCENARIO }, [
    '@modelcontextprotocol/sdk',
  ]);
});
afterAll(() => project.cleanup());

/** The served addresses, once `faultline serve` has printed them. */
function addresses(child: ReturnType<typeof start>['child']): Promise<{ out: string; vars: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const vars = Object.fromEntries([...out.matchAll(/^ {2}([A-Z_]+)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
      if (vars['FAULTLINE_END_URL'] !== undefined) resolve({ out, vars });
    });
    child.once('close', () => reject(new Error(`faultline serve ended before printing its addresses:\n${out}`)));
  });
}

const curl = async (...args: string[]): Promise<{ code: string; body: string }> => {
  const { stdout } = await run('curl', ['-s', '-m', '5', '-w', '\n%{http_code}', ...args]).catch(
    (e: { stdout: string; code: number }) => ({ stdout: `curl exit ${e.code}\n000` }),
  );
  const lines = stdout.split('\n');
  return { code: lines.pop()!, body: lines.join('\n') };
};

const Verdicts = z.looseObject({
  status: z.string(),
  checks: z.array(
    z.object({ name: z.string(), verdict: z.looseObject({ valid: z.unknown(), message: z.string().optional() }) }),
  ),
});
const failing = (v: z.infer<typeof Verdicts>): string[] =>
  v.checks.filter((c) => c.verdict.valid !== true).map((c) => c.name);

describe('serve and mcp-serve take the services and budget of faultline.config.ts defaults', () => {
  it('serve: the scenario without services serves the default orders service once, and the default budget judges the trial', async () => {
    const serve = start(['serve', 'orders.yaml', '--trials', '1'], { cwd: project.path });
    const { out, vars } = await addresses(serve.child);
    expect(out).toContain('faultline serve  served-orders, seed 1, trial 0: serving');
    // Served once, not once per agent of the matrix.
    expect(out.match(/serving/g)).toHaveLength(1);
    expect(vars['FAULTLINE_ORDERS_URL']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const url = `${vars['FAULTLINE_ORDERS_URL']}/tools/create_order`;
    const headers = ['-H', 'content-type: application/json', '-H', 'idempotency-key: k-1'];
    expect((await curl('-X', 'POST', url, ...headers, '-d', ORDER)).code).toBe('000');
    const resent = await curl('-X', 'POST', url, ...headers, '-d', ORDER);
    expect(resent.code).toBe('200');
    expect(JSON.parse(resent.body)).toMatchObject({ clientReference: 'ref-1', status: 'created' });
    const ended = await curl('-X', 'POST', vars['FAULTLINE_END_URL']!, '-d', JSON.stringify(CLAIMS));
    expect(failing(Verdicts.parse(JSON.parse(ended.body)))).toEqual(['budget']);
    const done = await serve.done;
    expect(done.code, done.stderr).toBe(1);
    expect(done.stdout).toContain('faultline serve  served-orders, seed 1, trial 0: failed (budget)');
    expect(done.stdout).toMatch(/✗ budget: create_order#1 .* was sent 2 times over the wire, the limit is 1 attempts/);
  });

  it("mcp-serve: the default service's tools are listed and called, and the default budget judges the trial", async () => {
    const server = faultlineOverStdio(['mcp-serve', 'orders.yaml', '--trials', '1'], { cwd: project.path });
    const client = new Client({ name: 'keyed', version: '1.0.0' });
    await client.connect(server.transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('create_order');
    const call = () =>
      client.callTool(
        {
          name: 'create_order',
          arguments: JSON.parse(ORDER) as Record<string, unknown>,
          _meta: { idempotencyKey: 'k-1' },
        },
        undefined,
        { timeout: 3000 },
      );
    // The lost answer: an error or a timeout, whichever the transport makes of it; then the resend under the same key.
    await call().then(
      (r) => expect(r.isError).toBe(true),
      (e: unknown) => expect(e).toBeInstanceOf(Error),
    );
    const resent = await call();
    expect(resent.isError, JSON.stringify(resent)).toBeFalsy();
    const verdicts = await client.request({ method: 'faultline/end_trial', params: CLAIMS }, Verdicts);
    expect(failing(verdicts)).toEqual(['budget']);
    await client.close();
    expect(await exitedOverStdio(server.stderr), server.stderr()).toBe(1);
    expect(server.stderr()).toContain('faultline mcp-serve  served-orders, seed 1, trial 0: failed (budget)');
  });
});
