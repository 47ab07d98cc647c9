import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { History, Rng, VirtualClock } from '../../core/index.js';
import { HttpFaults } from '../../faults/http/HttpFaults.js';
import { runWithMsw } from '../../faults/http/msw.js';
import { runWithNock } from '../../faults/http/nock.js';
import { Cassette } from './Cassette.js';
import { recordedModelService, type RecordedModelSource } from './recordedService.js';
import { usageOf } from './usage.js';

const START = Date.parse('2025-01-01T00:00:00Z');

// An endpoint that counts what reaches it, in a child process (a server in this one would share the trial's virtual
// timers): a replay must send it nothing.
const ENDPOINT = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8').on('data', (d) => (body += d));
  req.on('end', () => {
    process.stdout.write(JSON.stringify({ auth: req.headers.authorization, body }) + '\\n');
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_1' });
    res.end(JSON.stringify({
      id: 'chatcmpl-1',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hi' } }],
      usage: { prompt_tokens: 9, completion_tokens: 2 },
    }));
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));
`;

let child: ChildProcess;
let baseUrl: string;
const hits: { auth: string | undefined; body: string }[] = [];
beforeAll(async () => {
  child = spawn(process.execPath, ['-e', ENDPOINT], { stdio: ['ignore', 'pipe', 'inherit'] });
  baseUrl = await new Promise<string>((resolve) => {
    let buffered = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      buffered += d;
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith('port ')) resolve(`http://127.0.0.1:${line.slice(5)}`);
        else hits.push(JSON.parse(line) as { auth: string | undefined; body: string });
      }
    });
  });
});
afterAll(() => {
  child.kill();
});

/** Hits arrive over the child's stdout: give them a real moment to land. */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const ask = (content: string) => (url: string) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer faultline-test-key' },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content }] }),
  }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { error?: { message: string }; usage?: unknown },
  }));

function trial(source: RecordedModelSource) {
  const clock = new VirtualClock(START);
  const history = new History(clock);
  const faults = new HttpFaults({
    services: [recordedModelService('openai', baseUrl, source)],
    plan: [],
    clock,
    rng: new Rng(1),
    history,
  });
  return { clock, history, faults };
}

describe('recorded model routes', () => {
  it.each([
    ['msw', runWithMsw],
    ['nock', runWithNock],
  ] as const)(
    'under %s: a cassette answers offline, its usage recorded, and refuses an unknown request with a diff',
    async (_, runWith) => {
      hits.length = 0;
      const recorded = new Cassette('openai');
      recorded.add({
        request: {
          method: 'POST',
          path: '/v1/chat/completions',
          body: { model: 'm', messages: [{ role: 'user', content: 'hello' }] },
        },
        response: {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: {
            id: 'chatcmpl-1',
            choices: [{ index: 0, message: { role: 'assistant', content: 'hi' } }],
            usage: { prompt_tokens: 9, completion_tokens: 2 },
          },
        },
      });
      const misses: string[] = [];
      const replay = trial({
        kind: 'cassette',
        cassette: Cassette.parse(JSON.stringify(recorded.toJSON()), 'x.cassette.json'),
        file: 'x.cassette.json',
        onMiss: (m) => misses.push(m),
      });
      const run = await runWith(replay.faults, replay.clock, async () => [
        await ask('hello')(baseUrl),
        await ask('hullo')(baseUrl),
      ]);
      await settled();
      expect(hits).toHaveLength(0);
      const [hit, miss] = run.kind === 'settled' ? run.value : [];
      expect(hit).toMatchObject({ status: 200, body: { usage: { prompt_tokens: 9 } } });
      expect(replay.history.events.flatMap((e) => (e.type === 'response' && e.usage ? [e.usage] : []))).toEqual([
        { input: 9, output: 2 },
      ]);
      expect(miss?.status).toBe(400);
      expect(misses).toEqual([miss?.body.error?.message]);
      expect(misses[0]).toBe(
        [
          'POST /v1/chat/completions: the cassette x.cassette.json holds no answer to this request ' +
            '(re-record it with faultline run --record); the closest recorded request (entry 0) differs:',
          '  --- recorded',
          '  +++ sent',
          '    …',
          '      "messages": [',
          '        {',
          '  -       "content": "hello",',
          '  +       "content": "hullo",',
          '          "role": "user"',
          '        }',
          '    …',
        ].join('\n'),
      );
    },
  );
});

describe('Cassette.parse', () => {
  it('names the file and the path inside it', () => {
    expect(() =>
      Cassette.parse(
        '{"faultline":"cassette","version":1,"api":"openai","entries":[' +
          '{"request":{"method":"POST","path":"v1","body":{}},"response":{"status":200,"headers":{},"body":{}}}]}',
        'a.cassette.json',
      ),
    ).toThrow(/^a\.cassette\.json: invalid cassette:\n {2}- entries\[0\]\.request\.path: /);
    expect(() => Cassette.parse('{', 'b.cassette.json')).toThrow(/^b\.cassette\.json: not valid JSON/);
  });
});

describe('usageOf', () => {
  it('reads chat, Responses and Anthropic usage, and nothing from a body without it', () => {
    expect(usageOf('{"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}}')).toEqual({
      input: 3,
      output: 4,
    });
    expect(usageOf('{"usage":{"input_tokens":5,"output_tokens":6}}')).toEqual({ input: 5, output: 6 });
    expect(usageOf('{"usage":{"input_tokens":5,"cache_read_input_tokens":10,"output_tokens":6}}')).toEqual({
      input: 15,
      output: 6,
      cached: 10,
    });
    expect(usageOf('{"id":"x"}')).toBeUndefined();
    expect(usageOf('data: {"usage":1}')).toBeUndefined();
  });
});

describe('a model mistake that finds nothing to change', () => {
  it('serves each of two parallel requests the answer its own mistake read, reading the cassette once each', async () => {
    const PATH = '/v1/chat/completions';
    const body = (content: string) => ({ model: 'm', messages: [{ role: 'user', content }] });
    const answer = (text: string) => ({
      id: 'x',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
    const entry = (content: string, text: string) => ({
      request: { method: 'POST', path: PATH, body: body(content) },
      response: { status: 200, headers: { 'content-type': 'application/json' }, body: answer(text) },
    });
    const cassette = new Cassette('openai', [entry('A', 'a1'), entry('A', 'a2'), entry('B', 'b1'), entry('B', 'b2')], {
      scenario: 's',
      config: 'c',
      trialIndex: 0,
      seed: 1,
    });
    let reads = 0;
    const find = cassette.find.bind(cassette);
    cassette.find = (...args: Parameters<Cassette['find']>) => {
      reads += 1;
      return find(...args);
    };
    const service = recordedModelService('openai', 'http://model.test/v1', {
      kind: 'cassette',
      cassette,
      file: 'c.json',
      onMiss: (message) => expect.unreachable(message),
    });
    const route = service.routes.find((r) => r.path.includes('chat'))!;
    const clock = new VirtualClock(0);
    const draws = { rng: new Rng(1), entities: () => [] };
    const one = async (request: string, content: string): Promise<unknown> => {
      const text = JSON.stringify(body(content));
      const req = { method: 'POST', params: {}, query: new URLSearchParams(), body: body(content), text, headers: {} };
      const ctx = { clock, request } as Parameters<typeof route.serve>[1];
      // A text answer: a mistake on tool-call arguments finds nothing in it.
      const made = await route.mistake!(
        { kind: 'malformed_arguments' } as never,
        route.input(req as never),
        ctx,
        draws as never,
      );
      if ((made as { kind: string }).kind !== 'none') return made;
      return route.serve(route.input(req as never), ctx);
    };
    const served = await Promise.all([one('http-1', 'A'), one('http-2', 'B')]);
    const said = served.map(
      (a) => (JSON.parse((a as { body: string }).body) as ReturnType<typeof answer>).choices[0]!.message.content,
    );
    expect(said).toEqual(['a1', 'b1']);
    expect(reads).toBe(2);
  });
});
