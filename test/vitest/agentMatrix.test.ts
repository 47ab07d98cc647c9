/**
 * Issue 27: describeScenarios under faultline.config.ts's `defaults` and `agents` matrix, from a
 * user's side: a project outside the repository, run by the real vitest binary. The scenario
 * names no services, budget or agent code; the config's defaults and agents (a scripted, a
 * function and an SDK-free http agent) fill them in, and every test is named as `run` labels its cell.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELPDESK_SERVICE } from '../cli/helpdeskService.js';
import { failure, installedUserProject, lineOf, vitest } from './realVitest.js';

const CONFIG = `import { defineConfig } from 'faultline';

type Tools = Record<string, (input: unknown) => Promise<unknown>>;
const plan = { steps: [{ tool: 'open_ticket', input: { requestId: 'req-42', subject: 'Printer on fire' }, subject: 'helpdesk:req-42' }] };

export default defineConfig({
  defaults: {
    services: ['./helpdesk.service.ts'],
    budget: { maxAttemptsPerCall: 4 },
  },
  agents: [
    { name: 'careful', kind: 'scripted', behaviour: 'careful', plan },
    {
      name: 'double',
      kind: 'function',
      // Opens the ticket twice, under two request ids: one ticket too many.
      fn: async ({ tools }: { tools: Tools }) => {
        await tools['open_ticket']!({ requestId: 'req-42', subject: 'Printer on fire' });
        await tools['open_ticket']!({ requestId: 'req-43', subject: 'Printer on fire' });
        return { outcome: 'completed' };
      },
    },
    { name: 'fetcher', module: './fetcher.agent.ts' },
  ],
});
`;

// No SDK: one POST, retried with the same key after the Retry-After the helpdesk asks for.
const FETCHER = `import { defineHttpAgent } from 'faultline';

export default defineHttpAgent(async ({ services }) => {
  for (let attempt = 1; attempt <= 3; attempt++) {
    const res = await fetch(services['helpdesk']!.baseUrl + '/tickets', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'op-req-42' },
      body: JSON.stringify({ requestId: 'req-42', subject: 'Printer on fire' }),
    });
    if (res.ok) return { outcome: 'completed' };
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? '1') * 1000));
  }
  return { outcome: 'failed' };
});
`;

// No services, budget or agent code of its own: the config's defaults and agents fill them in.
const SCENARIO = `name: ticket-rate-limited
faults:
  - match: { tool: open_ticket, attempt: 1 }
    fault: { kind: rate_limit, retryAfter: 1 }
agent: { task: Open a ticket about the printer that is on fire. }
goal:
  effects: { ticket.opened: 1 }
`;

const MATRIX_TEST = `// One test per agent of faultline.config.ts.
import { describeScenarios } from 'faultline/vitest';

await describeScenarios(['scenarios/*.yaml'], { k: 2, seed: 3 });
`;

const CONFIGS_TEST = `// Two retry configurations: the runtime-driven agents run under each, the http agent under the first only.
import { describeScenarios } from 'faultline/vitest';

await describeScenarios(['scenarios/ticket-rate-limited.yaml'], { retryConfigs: ['rulebook', 'naive'], k: 2 });
`;

let project: Awaited<ReturnType<typeof installedUserProject>>;
let out = '';

beforeAll(async () => {
  project = await installedUserProject(
    'vitest-matrix',
    {
      'faultline.config.ts': CONFIG,
      'helpdesk.service.ts': HELPDESK_SERVICE,
      'fetcher.agent.ts': FETCHER,
      'scenarios/ticket-rate-limited.yaml': SCENARIO,
      'test/matrix.test.ts': MATRIX_TEST,
      'test/configs.test.ts': CONFIGS_TEST,
    },
    ['vitest'],
  );
  const r = await vitest(project.path, ['test/matrix.test.ts', 'test/configs.test.ts']);
  out = r.out;
  expect(r.code, out).toBe(1);
});
afterAll(() => project?.cleanup());

/** The tests of one file vitest listed, as `✓ name` or `× name`, in its order. */
const listed = (): string[] => [...out.matchAll(/^ +([✓×] ticket-rate-limited › .*\))/gm)].map((m) => m[1]!);

describe('describeScenarios under faultline.config.ts defaults and agents', () => {
  it('names a test per agent as run labels its cells, scenario › agent (k, seed), the defaults filled in', () => {
    const matrix = listed().filter((t) => t.endsWith('(k = 2, seed 3)'));
    expect(matrix).toEqual([
      '✓ ticket-rate-limited › careful (k = 2, seed 3)',
      '× ticket-rate-limited › double (k = 2, seed 3)',
      '✓ ticket-rate-limited › fetcher (k = 2, seed 3)',
    ]);
    // The scenario names no services: the helpdesk of the defaults served every agent, and its fault fired.
    expect(out).not.toMatch(/invalid scenario|no such service|unknown tool/);
    expect(out).toMatch(/Tests +4 failed \| 4 passed \(8\)/);
  });

  it('runs an http agent, which makes its own retries, under the first retry configuration only; the others under each, labelled agent/config', () => {
    const configs = listed().filter((t) => t.endsWith('(k = 2, seed 1)'));
    expect(configs.map((t) => t.slice(2))).toEqual([
      'ticket-rate-limited › careful/rulebook (k = 2, seed 1)',
      'ticket-rate-limited › careful/naive (k = 2, seed 1)',
      'ticket-rate-limited › double/rulebook (k = 2, seed 1)',
      'ticket-rate-limited › double/naive (k = 2, seed 1)',
      'ticket-rate-limited › fetcher (k = 2, seed 1)',
    ]);
    expect(configs).toContain('✓ ticket-rate-limited › careful/rulebook (k = 2, seed 1)');
    expect(configs).toContain('✓ ticket-rate-limited › fetcher (k = 2, seed 1)');
    expect(out).not.toContain('fetcher/');
  });

  it("fails the failing agent's test at the describeScenarios call in the user's file, with its verdict and a replay command naming the agent", () => {
    const report = failure(out, 'test/matrix.test.ts', 'ticket-rate-limited › double (k = 2, seed 3)');
    expect(report).toMatch(
      new RegExp(`\\n ❯ test/matrix\\.test\\.ts:${lineOf(MATRIX_TEST, 'await describeScenarios(')}:\\d+\\n`),
    );
    expect(report).not.toContain('describeScenarios.js');
    expect(report).toContain(
      'expected pass^2 of ticket-rate-limited × double to be at least 1, got 0.000 (0 of 2 trials passed)',
    );
    expect(report).toContain('goal-state: ticket.opened happened 2 times, expected 1');
    expect(report).toContain(
      'replay: faultline replay scenarios/ticket-rate-limited.yaml --config rulebook --agent double --seed 3 --trial 0',
    );
  });
});
