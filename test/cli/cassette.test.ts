/**
 * Recorded model answers through the real binary: `--record` against a fake OpenAI-compatible
 * endpoint on loopback (this machine has no internet), then offline replays from the cassette.
 * The first recording goes through the binary; the variations run the CLI's entry in this
 * process (./inProcess.ts), which spares each a Node start.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';
import { openaiMistakenAgent } from './mistakenAgents.js';
import { userProject } from './userProject.js';

const EXAMPLES = fileURLToPath(new URL('../../scenarios/examples/', import.meta.url));
const KEY = 'sk-faultline-test-0123456789';

interface Seen {
  readonly authorization: string | undefined;
  readonly body: { messages: { role: string; content: unknown }[] };
}

/** A chat-completions endpoint that asks for open_ticket once, then answers with the final JSON the example agent reads. */
function fakeOpenAi(seen: Seen[]): Server {
  return createServer((req: IncomingMessage, res) => {
    let text = '';
    req.setEncoding('utf8').on('data', (d: string) => (text += d));
    req.on('end', () => {
      const body = JSON.parse(text) as Seen['body'];
      seen.push({ authorization: req.headers.authorization, body });
      const toolDone = body.messages.some((m) => m.role === 'tool');
      const message = toolDone
        ? {
            role: 'assistant',
            content: JSON.stringify({
              outcome: 'completed',
              message: 'Ticket opened.',
              claims: [{ subject: 'helpdesk:req-42', status: 'succeeded' }],
            }),
          }
        : {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_fake_1',
                type: 'function',
                function: {
                  name: 'open_ticket',
                  arguments: JSON.stringify({ requestId: 'req-42', subject: 'Printer on fire' }),
                },
              },
            ],
          };
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-request-id': 'req_live_1',
        'set-cookie': 'session=abc',
      });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-fake',
          object: 'chat.completion',
          created: 1_767_600_000,
          model: 'gpt-4o-mini',
          choices: [{ index: 0, message, finish_reason: toolDone ? 'stop' : 'tool_calls' }],
          usage: {
            prompt_tokens: toolDone ? 120 : 80,
            completion_tokens: toolDone ? 30 : 15,
            total_tokens: toolDone ? 150 : 95,
          },
        }),
      );
    });
  });
}

const scenario = (baseUrl: string, task: string): string => `name: recorded-openai-agent
services: [${join(EXAMPLES, 'helpdesk/code/helpdesk.service.ts')}]
model:
  api: openai
  baseUrl: ${baseUrl}
faults:
  - match: { tool: open_ticket, attempt: 1 }
    fault: { kind: partial_write, lostAs: timeout }
agent:
  kind: http
  task: ${task}
  module: ${join(EXAMPLES, 'sdk-agents/code/openaiAgent.ts')}
goal:
  effects: { ticket.opened: 1 }
  outcome: [completed]
`;

const withoutWallClock = (text: string): unknown => {
  const { wallClock: _, ...rest } = JSON.parse(text) as Record<string, unknown>;
  return rest;
};

let dir: Awaited<ReturnType<typeof tempDir>>;
let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
beforeAll(async () => {
  dir = await tempDir('cassette');
  server = fakeOpenAi(seen);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await dir.cleanup();
});

describe('cassettes: --record against a real endpoint, then offline replays', () => {
  it('records each distinct request once, replays byte-identical histories offline, and fails a changed prompt with a diff', async () => {
    const file = join(dir.path, 'agent.yaml');
    await writeFile(file, scenario(baseUrl, 'Open a ticket about the printer that is on fire.'));

    const recorded = await faultline(['run', 'agent.yaml', '--k', '2', '--record', '--out', 'rec'], {
      cwd: dir.path,
      env: { OPENAI_API_KEY: KEY },
    });
    expect(recorded.code, recorded.stderr + recorded.stdout).toBe(0);
    expect(recorded.stdout).toContain('cassettes: agent.cassette.json');
    // Two distinct requests (the task, then the tool result): the second trial was answered as the first was.
    expect(seen).toHaveLength(2);
    expect(seen.map((s) => s.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
    // --record is a live run: each trial's own recording beside the report, in the same format with its trial.
    const trialFiles = (await readdir(join(dir.path, 'rec', 'live'), { recursive: true }))
      .filter((f) => f.endsWith('.cassette.json'))
      .sort();
    expect(trialFiles).toEqual([
      join('recorded-openai-agent', 'rulebook', 'trial-0.cassette.json'),
      join('recorded-openai-agent', 'rulebook', 'trial-1.cassette.json'),
    ]);
    for (const [i, f] of trialFiles.entries()) {
      const one = JSON.parse(await readFile(join(dir.path, 'rec', 'live', f), 'utf8')) as {
        faultline: string;
        version: number;
        trial: unknown;
        entries: unknown[];
      };
      expect(one).toMatchObject({
        faultline: 'cassette',
        version: 1,
        trial: { scenario: 'recorded-openai-agent', config: 'rulebook', trialIndex: i },
      });
      expect(one.entries).toHaveLength(2);
    }

    const cassette = JSON.parse(await readFile(join(dir.path, 'agent.cassette.json'), 'utf8')) as {
      faultline: string;
      api: string;
      entries: {
        request: { method: string; path: string; body: Seen['body'] };
        response: { status: number; headers: Record<string, string> };
      }[];
    };
    expect(cassette).toMatchObject({ faultline: 'cassette', version: 1, api: 'openai' });
    expect(
      cassette.entries.map((e) => [
        e.request.method,
        e.request.path,
        e.request.body.messages.length,
        e.response.status,
      ]),
    ).toEqual([
      ['POST', '/v1/chat/completions', 1, 200],
      ['POST', '/v1/chat/completions', 3, 200],
    ]);
    // Only the headers a client decides on are kept; request headers (the key) never are.
    expect(cassette.entries[0]!.response.headers).toEqual({ 'content-type': 'application/json' });

    // Offline now: nothing listens at baseUrl any more, and the replays never try it.
    await new Promise((resolve) => server.close(resolve));
    const env = { OPENAI_API_KEY: '' };
    // --workers 0 on the runs in process: their claim is the report, not isolation (the --record run
    // above runs the agent on a worker); it spares each a worker's process loading the SDK. The
    // replays run on a worker, as every replay does.
    const first = await inProcess(['run', 'agent.yaml', '--k', '2', '--workers', '0', '--out', 'r1'], {
      cwd: dir.path,
      env,
    });
    const second = await inProcess(['run', 'agent.yaml', '--k', '2', '--workers', '0', '--out', 'r2'], {
      cwd: dir.path,
      env,
    });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(second.code).toBe(0);
    expect(seen).toHaveLength(2);
    const [r1, r2] = await Promise.all(['r1', 'r2'].map((d) => readFile(join(dir.path, d, 'faultline.json'), 'utf8')));
    expect(withoutWallClock(r1!)).toEqual(withoutWallClock(r2!));
    // Each trial replayed, then replayed again three ways, spread over the two trials (each run
    // of the binary loads the SDK): the same replay twice, and replay --cassette reading both the
    // scenario's cassette and the trial's own recording from the --record run.
    const againArgs = (trial: string): string[][] =>
      trial === '0'
        ? [[], ['--cassette', 'agent.cassette.json']]
        : [['--cassette', join('rec', 'live', 'recorded-openai-agent', 'rulebook', `trial-${trial}.cassette.json`)]];
    for (const trial of ['0', '1']) {
      const a = await inProcess(['replay', 'agent.yaml', '--trial', trial, '--json'], { cwd: dir.path, env });
      expect(a.code, a.stderr).toBe(0);
      expect(a.stdout.length).toBeGreaterThan(1000);
      for (const extra of againArgs(trial)) {
        const again = await inProcess(['replay', 'agent.yaml', '--trial', trial, ...extra, '--json'], {
          cwd: dir.path,
          env,
        });
        expect(again.stdout, `replay --trial ${trial} ${extra.join(' ')}: ${again.stderr}`).toBe(a.stdout);
      }
      // Each model answer's usage rides on its response event.
      expect(a.stdout).toMatch(/"usage":\s*\{\s*"input":\s*80,\s*"output":\s*15\s*\}/);
      expect(a.stdout).toMatch(/"usage":\s*\{\s*"input":\s*120,\s*"output":\s*30\s*\}/);
    }

    // The recorded token counts are the metrics: 80+120 in and 15+30 out per trial, two trials.
    const report = JSON.parse(r1!) as { cells: { metrics: { tokens: unknown } }[] };
    expect(report.cells[0]!.metrics.tokens).toEqual({ input: 400, output: 90 });
    const md = await readFile(join(dir.path, 'r1', 'summary.md'), 'utf8');
    expect(md).toContain(
      '| scenario | pass^1 | pass^2 | pass@2 | trials passed | duplicates | budget violations | amplification | p95 virtual time | model tokens in / out |',
    );
    expect(md).toMatch(
      /\| ✅ recorded-openai-agent \| 1\.000 \\\[0\.16, 1\.00\\\] \| 1\.000 \\\[0\.03, 1\.00\\\] \| 1\.000 \\\[0\.29, 1\.00\\\] \| 2\/2 \|.* \| 400 \/ 90 \|/,
    );

    // A changed prompt is a request the cassette does not hold: the trial fails with a diff, never a network call.
    await writeFile(file, scenario(baseUrl, 'Open a ticket about the printer that is smoking.'));
    const changed = await inProcess(['run', 'agent.yaml', '--k', '1', '--workers', '0', '--out', 'r3'], {
      cwd: dir.path,
      env,
    });
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('POST /v1/chat/completions: the cassette');
    expect(changed.stdout).toContain('holds no answer to this request (re-record it with faultline run --record)');
    const junit = await readFile(join(dir.path, 'r3', 'junit.xml'), 'utf8');
    expect(junit).toContain(
      [
        '  -       "content": "Open a ticket about the printer that is on fire.",',
        '  +       "content": "Open a ticket about the printer that is smoking.",',
      ].join('\n'),
    );

    // The key went to the endpoint and nowhere else.
    for (const name of await readdir(dir.path, { recursive: true })) {
      const path = join(dir.path, name);
      const text = await readFile(path, 'utf8').catch(() => '');
      expect(text, path).not.toContain(KEY);
    }
    // About a dozen runs of the binary, each loading the SDK: more than the default 30 s on a busy machine.
  });

  it("writes no declared secret into a trial's recording or the scenario's cassette, and a replay from either sees the conversation as it was", async () => {
    const seenHere: Seen[] = [];
    const live = fakeOpenAi(seenHere);
    await new Promise<void>((resolve) => live.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(live.address() as AddressInfo).port}`;
      // The model's final answer says "Ticket opened.", declared a secret: it is in the recorded
      // answer, and in the agent's final message, where the secrets checker fails the trial.
      const text =
        scenario(url, 'Open a ticket.').replace('name: recorded-openai-agent', 'name: secret-agent') +
        'secrets: [Ticket opened.]\n';
      await writeFile(join(dir.path, 'secret.yaml'), text);
      const recorded = await inProcess(
        ['run', 'secret.yaml', '--k', '1', '--record', '--workers', '0', '--out', 'srec'],
        {
          cwd: dir.path,
          env: { OPENAI_API_KEY: KEY },
        },
      );
      expect(recorded.code, recorded.stderr + recorded.stdout).toBe(1);
      expect(recorded.stdout).toContain('secrets');
      const trialFile = join('srec', 'live', 'secret-agent', 'rulebook', 'trial-0.cassette.json');
      for (const file of [trialFile, 'secret.cassette.json']) {
        const written = await readFile(join(dir.path, file), 'utf8');
        expect(written, file).not.toContain('Ticket opened.');
        expect(written, file).toContain('[REDACTED:secret-0]');
      }
      // Offline, from the trial's recording and from the scenario's cassette: the secret is sent again, and the same checker fails.
      await new Promise((resolve) => live.close(resolve));
      const env = { OPENAI_API_KEY: '' };
      const fromTrial = await inProcess(['replay', 'secret.yaml', '--trial', '0', '--cassette', trialFile, '--json'], {
        cwd: dir.path,
        env,
      });
      const fromScenario = await inProcess(['replay', 'secret.yaml', '--trial', '0', '--json'], { cwd: dir.path, env });
      expect(fromTrial.code, fromTrial.stderr).toBe(1);
      expect(fromScenario.stdout, fromScenario.stderr).toBe(fromTrial.stdout);
      // The agent's final message was the secret: scrubbed in what is printed, there all the same.
      expect(fromTrial.stdout).toContain('"message": "[REDACTED]"');
      expect(fromTrial.stdout).not.toContain('Ticket opened.');
      const verdicts = await inProcess(['replay', 'secret.yaml', '--trial', '0', '--cassette', trialFile], {
        cwd: dir.path,
        env: { ...env, NO_COLOR: '1' },
      });
      expect(verdicts.stdout).toContain('failed (secrets)');
      expect(verdicts.stdout).not.toContain('holds no answer');
    } finally {
      live.close();
    }
  });

  it('refuses bad input before any trial: a missing key, a broken cassette, a named cassette that is not there (exit 2)', async () => {
    const file = join(dir.path, 'bad.yaml');
    await writeFile(file, scenario('http://127.0.0.1:9', 'Open a ticket.'));
    const noKey = await inProcess(['run', 'bad.yaml', '--record', '--k', '1'], {
      cwd: dir.path,
      env: { OPENAI_API_KEY: '' },
    });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain(
      'bad.yaml: --record sends the model requests to http://127.0.0.1:9, and needs its key in OPENAI_API_KEY, which is not set',
    );

    await writeFile(
      join(dir.path, 'bad.cassette.json'),
      JSON.stringify({
        faultline: 'cassette',
        version: 1,
        api: 'openai',
        entries: [
          {
            request: { method: 'POST', path: '/v1/chat/completions', body: {} },
            response: { status: 99, headers: {}, body: {} },
          },
        ],
      }),
    );
    const broken = await inProcess(['run', 'bad.yaml', '--k', '1'], { cwd: dir.path });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/bad\.cassette\.json: invalid cassette:\n {2}- entries\[0\]\.response\.status: /);
    expect(broken.stderr).not.toMatch(/\n\s+at /);

    await writeFile(
      file,
      scenario('http://127.0.0.1:9', 'Open a ticket.').replace(
        '  api: openai\n',
        '  api: openai\n  cassette: ./recorded/none.cassette.json\n',
      ),
    );
    const missing = await inProcess(['run', 'bad.yaml', '--k', '1'], { cwd: dir.path });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('model.cassette: ');
    expect(missing.stderr).toContain('none.cassette.json: no such file (record it with faultline run --record)');
  });

  it("makes the model's own mistakes on the cassette's answers: malformed arguments and a cut final text catch a careless agent", async () => {
    const seenHere: Seen[] = [];
    const live = fakeOpenAi(seenHere);
    await new Promise<void>((resolve) => live.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(live.address() as AddressInfo).port}`;
    const careless = (name: string, faults: string): string => `name: ${name}
services: [${join(EXAMPLES, 'helpdesk/code/helpdesk.service.ts')}]
model: { api: openai, baseUrl: '${url}', cassette: ./careless.cassette.json }
faults: ${faults}
agent: { kind: http, task: Open a ticket., module: ./careless.agent.ts }
goal: { effects: { ticket.opened: 1 }, outcome: [completed] }
`;
    const project = await userProject(
      'cassette-mistakes',
      {
        'careless.agent.ts': openaiMistakenAgent('careless', false),
        'record.yaml': careless('careless-recorded', '[]'),
        'malformed.yaml': careless(
          'careless-malformed',
          '[{ match: { tool: model:openai.chat.completions, call: 1 }, fault: { kind: malformed_arguments }, times: 1 }]',
        ),
        'cut.yaml': careless(
          'careless-cut',
          '[{ match: { tool: model:openai.chat.completions, call: 2 }, fault: { kind: truncated, keep: 10, at: text }, times: 1 }]',
        ),
      },
      ['openai'],
    );
    try {
      const recorded = await inProcess(
        ['run', 'record.yaml', '--k', '1', '--record', '--workers', '0', '--out', 'rec'],
        {
          cwd: project.path,
          env: { OPENAI_API_KEY: KEY },
        },
      );
      expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);
      await new Promise((resolve) => live.close(resolve));
      const r = await inProcess(
        ['run', 'malformed.yaml', 'cut.yaml', '--k', '1', '--workers', '0', '--out', 'out', '--reporter', 'json'],
        { cwd: project.path, env: { OPENAI_API_KEY: '' } },
      );
      expect(r.code, r.stdout + r.stderr).toBe(1);
      const report = JSON.parse(await readFile(join(project.path, 'out', 'faultline.json'), 'utf8')) as {
        cells: {
          scenario: string;
          metrics: { coverage?: unknown };
          trials: { checks: { name: string; verdict: { valid: unknown; message?: string } }[] }[];
        }[];
      };
      const mistakes = Object.fromEntries(
        report.cells.map((c) => [
          c.scenario,
          c.trials[0]?.checks.find((k) => k.name === 'model-mistakes')?.verdict.message ?? 'passed',
        ]),
      );
      expect(mistakes['careless-malformed']).toMatch(
        /^the model's malformed_arguments answer to http-1 at t=0ms called open_ticket\(.*\), and the agent sent it on to open_ticket .*\(R16\)$/,
      );
      expect(mistakes['careless-cut']).toMatch(
        /^the model's truncated answer to http-3 .*reported the task completed on it.*\(R20\)$/,
      );
      // Offline all along: the replays asked the endpoint nothing.
      expect(seenHere).toHaveLength(2);
    } finally {
      live.close();
      await project.cleanup();
    }
  });
});
