/**
 * `faultline serve`: the scenario's world kept up on 127.0.0.1 for interactive work, answering
 * curl under the fault plan, and judging what arrived when the trial is ended (a POST to the end
 * URL, `--trials N`) or on Ctrl-C. From a user's project, through the real binary.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start } from './faultline.js';
import { servedAddresses } from './servedAddresses.js';
import { userProject } from './userProject.js';

const run = promisify(execFile);

const SCENARIO = `name: serve-orders
services: [orders]
faults:
  - match: { tool: create_order, attempt: 1 }
    fault: { kind: partial_write, lostAs: network }
# serve starts no agent: whoever calls the served world is the agent.
agent:
  kind: command
  argv: ['true']
goal:
  effects: { order.created: 1 }
  outcome: [completed]
`;

const ORDER = '{"clientReference":"ref-1","item":"book","quantity":1,"amountCents":1200}';

let project: Awaited<ReturnType<typeof userProject>>;
beforeAll(async () => {
  project = await userProject('serve', { 'orders.yaml': SCENARIO });
});
afterAll(() => project.cleanup());

const curl = async (...args: string[]): Promise<{ code: string; body: string }> => {
  const { stdout } = await run('curl', ['-s', '-m', '5', '-w', '\n%{http_code}', ...args]).catch(
    (e: { stdout: string; code: number }) => ({ stdout: `curl exit ${e.code}\n000` }),
  );
  const lines = stdout.split('\n');
  return { code: lines.pop()!, body: lines.join('\n') };
};

describe('faultline serve', () => {
  it('answers curl under the fault plan, and a POST to the end URL ends the trial with its verdicts (--trials 1)', async () => {
    const serve = start(['serve', 'orders.yaml', '--trials', '1'], { cwd: project.path });
    const vars = await servedAddresses(serve.child);
    expect(vars['FAULTLINE_ORDERS_URL']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const url = `${vars['FAULTLINE_ORDERS_URL']}/tools/create_order`;
    // The plan's partial write: the order commits, the connection is reset; curl's resend carries no key.
    const lost = await curl('-X', 'POST', url, '-H', 'content-type: application/json', '-d', ORDER);
    expect(lost.code).toBe('000');
    const again = await curl('-X', 'POST', url, '-H', 'content-type: application/json', '-d', ORDER);
    expect(again.code).toBe('200');
    expect(JSON.parse(again.body)).toMatchObject({ clientReference: 'ref-1', status: 'created' });
    const refused = await curl('-X', 'POST', vars['FAULTLINE_END_URL']!, '-d', 'not json');
    expect(refused.code).toBe('400');
    expect(refused.body).toMatch(/FAULTLINE_RESULT is not JSON/);
    const ended = await curl(
      '-X',
      'POST',
      vars['FAULTLINE_END_URL']!,
      '-d',
      '{"outcome":"completed","claims":[{"subject":"orders:ref-1","status":"succeeded"}]}',
    );
    expect(ended.code).toBe('200');
    const verdicts = JSON.parse(ended.body) as {
      status: string;
      checks: { name: string; verdict: { valid: unknown } }[];
    };
    expect(verdicts.status).toBe('failed');
    expect(verdicts.checks.filter((c) => c.verdict.valid !== true).map((c) => c.name)).toEqual([
      'goal-state',
      'duplicates',
      'retry-discipline',
    ]);
    const done = await serve.done;
    expect(done.code, done.stderr).toBe(1);
    expect(done.stdout).toMatch(
      /faultline serve {2}serve-orders, seed 1, trial 0: failed \(goal-state, duplicates, retry-discipline\)/,
    );
    expect(done.stdout).toMatch(
      /✗ duplicates: orders:ref-1 was created 2 times \(effects #0, #1; requests http-1, http-2; calls create_order#1 of create_order\)/,
    );
    expect(done.stdout).toMatch(/real time: serve-orders was served on the wall clock to clients outside faultline/);
  });

  it('on Ctrl-C judges what it saw and exits', async () => {
    const serve = start(['serve', 'orders.yaml'], { cwd: project.path });
    const vars = await servedAddresses(serve.child);
    // The same order twice under the same key: the service answers the resend with the first order.
    const keyedOrder = (): Promise<{ code: string; body: string }> =>
      curl(
        '-X',
        'POST',
        `${vars['FAULTLINE_ORDERS_URL']}/tools/create_order`,
        '-H',
        'content-type: application/json',
        '-H',
        'idempotency-key: k-1',
        '-d',
        ORDER,
      );
    await keyedOrder();
    const resent = await keyedOrder();
    expect(resent.code).toBe('200');
    serve.child.kill('SIGINT');
    const done = await serve.done;
    // Interrupted, as every command reports it (130), after the verdicts.
    expect(done.code, done.stderr).toBe(130);
    // No one reported an outcome: goal-state says so; the key kept the resend to one order.
    expect(done.stdout).toMatch(/✗ goal-state: .*unknown/);
    expect(done.stdout).toMatch(/✓ duplicates/);
    expect(done.stdout).toMatch(/✓ retry-discipline/);
  });
});
