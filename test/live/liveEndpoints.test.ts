/**
 * `faultline run --live` from a temp project (the first run through the real binary, the others
 * in process, test/cli/inProcess.ts), against the fake provider (test/live/fakeModelServer.ts):
 * `model.baseUrl` given with `/v1` as compatible servers document theirs, for both APIs; a
 * command agent (a program of its own) whose provider fails ends `infra-error`, never `crashed`;
 * `--max-cost` stops the run cleanly, the partial reports marked, with prices from
 * faultline.config.ts over the shipped table.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { faultline } from '../cli/faultline.js';
import { inProcess } from '../cli/inProcess.js';
import { EXAMPLES, liveHarness, sdkAgentScenario } from './liveHarness.js';
import { PRICED_CONFIG, pricedRunArgs } from './pricedRun.js';

const HELPDESK = join(EXAMPLES, 'helpdesk/code/helpdesk.service.ts');
const KEY = 'sk-live-test-fedcba9876543210';

const httpScenario = (name: string, api: 'openai' | 'anthropic', baseUrl: string, modelExtra = ''): string =>
  sdkAgentScenario(name, baseUrl, api, modelExtra);

/** A program of its own: plain fetch to the model at OPENAI_BASE_URL and to the helpdesk, its result in FAULTLINE_RESULT. */
const COMMAND_AGENT = `import { writeFileSync } from 'node:fs';
const base = process.env.OPENAI_BASE_URL;
const ask = async (messages) => {
  const res = await fetch(base + '/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' + process.env.OPENAI_API_KEY }, body: JSON.stringify({ model: 'gpt-4o-mini', messages }) });
  if (!res.ok) throw new Error('the model answered ' + res.status);
  return (await res.json()).choices[0].message;
};
const messages = [{ role: 'user', content: process.env.FAULTLINE_TASK }];
for (let turn = 0; turn < 4; turn++) {
  const message = await ask(messages);
  messages.push(message);
  if (!message.tool_calls) {
    writeFileSync(process.env.FAULTLINE_RESULT, message.content);
    process.exit(0);
  }
  for (const call of message.tool_calls) {
    const res = await fetch(process.env.FAULTLINE_HELPDESK_URL + '/tickets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: call.function.arguments });
    messages.push({ role: 'tool', tool_call_id: call.id, content: await res.text() });
  }
}
`;

const commandScenario = (baseUrl: string): string => `name: live-command
services: [${HELPDESK}]
model:
  api: openai
  baseUrl: ${baseUrl}/v1
agent:
  kind: command
  task: Open a ticket about the printer that is on fire.
  argv: [node, agent.mjs]
  timeoutMs: 600000
goal:
  effects: { ticket.opened: 1 }
  outcome: [completed]
`;

interface Report {
  run: {
    trials: number;
    infraErrors?: number;
    interrupted: boolean;
    cost?: number;
    stopped?: { reason: string; limit: number; spent: number };
  };
  cells: {
    status: string;
    metrics: { trials: number; successes: number; infraErrors?: number; cost?: number };
    verdicts: { status: string; trials: number; end: { kind: string; message?: string } }[];
    trials: { index: number; status: string; model?: string; cost?: number; recording?: string }[];
  }[];
}

const { serve, project, report: readReport } = liveHarness('live-endpoints');
const report = (dir: string, out: string): Promise<Report> => readReport<Report>(dir, out);

describe('faultline run --live against compatible endpoints', () => {
  it('takes model.baseUrl with /v1 (Ollama-style) for the openai and the anthropic API', async () => {
    const server = await serve({});
    const dir = await project({
      'oai.yaml': httpScenario('live-v1-openai', 'openai', `${server.url}/v1`),
      'ant.yaml': httpScenario('live-v1-anthropic', 'anthropic', `${server.url}/v1/`),
    });
    const r = await faultline(['run', 'oai.yaml', 'ant.yaml', '--live', '--k', '2', '--workers', '0', '--out', 'out'], {
      cwd: dir,
      env: { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(server.requests.map((q) => q.path).sort()).toEqual([
      ...Array<string>(4).fill('/v1/chat/completions'),
      ...Array<string>(4).fill('/v1/messages'),
    ]);
    expect(server.requests.filter((q) => q.path === '/v1/messages').map((q) => q.apiKey)).toEqual(
      Array<string>(4).fill(KEY),
    );
    const json = await report(dir, 'out');
    expect(json.cells.map((c) => [c.metrics.trials, c.metrics.successes])).toEqual([
      [2, 2],
      [2, 2],
    ]);
  });

  it("ends a command agent's trial infra-error, not crashed, when its provider fails for good", async () => {
    const down = await serve({ errorRate: 1, errors: ['503'] });
    const dir = await project({ 'cmd.yaml': commandScenario(down.url), 'agent.mjs': COMMAND_AGENT });
    const r = await inProcess(
      ['run', 'cmd.yaml', '--live', '--k', '2', '--workers', '0', '--live-retries', '1', '--out', 'down'],
      { cwd: dir, env: { OPENAI_API_KEY: KEY } },
    );
    expect(r.code, r.stdout + r.stderr).toBe(1);
    // Two attempts per trial, each trial's first request: the agent never saw the 503 to ask again.
    expect(down.requests).toHaveLength(4);
    const json = await report(dir, 'down');
    expect(json.run).toMatchObject({ trials: 0, infraErrors: 2 });
    expect(json.cells[0]!.verdicts).toEqual([
      expect.objectContaining({
        status: 'infra-error',
        trials: 2,
        end: { kind: 'infra_error', message: 'the model provider failed 2 times (1 retries); last: it answered 503' },
      }),
    ]);
    expect(r.stdout).toContain('infra_errors<=0 failed: infra_errors = 2');
    await down.close();

    // The same agent with a provider that answers: it passes, and its exchanges are recorded.
    const up = await serve({});
    await writeFile(join(dir, 'cmd.yaml'), commandScenario(up.url));
    const ok = await inProcess(['run', 'cmd.yaml', '--live', '--k', '1', '--workers', '0', '--out', 'up'], {
      cwd: dir,
      env: { OPENAI_API_KEY: KEY },
    });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect((await report(dir, 'up')).cells[0]!.metrics).toMatchObject({ trials: 1, successes: 1 });
    expect(up.requests.map((q) => q.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
    // A passing trial is counted, not listed, in the report: its recording is where every live trial's is.
    const cassette = JSON.parse(
      await readFile(join(dir, 'up', 'live', 'live-command', 'rulebook', 'trial-0.cassette.json'), 'utf8'),
    ) as { entries: unknown[] };
    expect(cassette.entries).toHaveLength(2);
    expect(JSON.stringify(cassette)).not.toContain(KEY);
  });

  it('stops at --max-cost with the partial reports marked, pricing by the config file over the shipped table', async () => {
    // 1M input tokens per answer at the config's $0.20 per million: $0.20 an answer, $0.40 a trial.
    const server = await serve({ usage: { input: 1_000_000, output: 0 } });
    const dir = await project({
      'priced.yaml': httpScenario('live-priced', 'openai', server.url, '  name: house-llm\n'),
      'faultline.config.ts': PRICED_CONFIG,
    });
    const r = await inProcess(pricedRunArgs(10, 0, 1), { cwd: dir, env: { OPENAI_API_KEY: KEY } });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    // A hard limit (issue 43): the third trial's second request is not sent; that trial ends not judged.
    expect(r.stderr).toMatch(
      /faultline: stopped at --max-cost 1 \(\$1\.00 spent\); the reports cover the 3 trials that finished/,
    );
    const json = await report(dir, 'out');
    expect(json.run.stopped).toEqual({ reason: 'max-cost', limit: 1, spent: expect.closeTo(1, 9) as number });
    expect(json.run).toMatchObject({ trials: 2, infraErrors: 1 });
    expect(json.cells[0]!.metrics).toMatchObject({ trials: 2, successes: 2 });
    expect(server.requests).toHaveLength(5);
  });
});
