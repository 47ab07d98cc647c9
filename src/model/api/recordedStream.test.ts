import { spawn, type ChildProcess } from 'node:child_process';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, History, Rng, VirtualClock } from '../../core/index.js';
import type { FaultPlan } from '../../faults/plan.js';
import { HttpFaults } from '../../faults/http/HttpFaults.js';
import { runWithMsw } from '../../faults/http/msw.js';
import { Cassette } from './Cassette.js';
import { recordedModelService, type RecordedModelSource } from './recordedService.js';

const START = Date.parse('2025-01-01T00:00:00Z');

// A real streaming endpoint in a child process (one in this process would share the trial's virtual timers).
const ENDPOINT = `
const http = require('node:http');
const chunk = (delta, finish) =>
  'data: ' +
  JSON.stringify({
    id: 'chatcmpl-9',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  }) +
  '\\n\\n';
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'x-request-id': 'req_1' });
    const parts = [
      chunk({ role: 'assistant', content: '' }, null),
      chunk({ content: 'Hel' }, null),
      chunk({ content: 'lo' }, null),
      chunk({}, 'stop'),
    ];
    for (const part of parts) res.write(part);
    res.end('data: [DONE]\\n\\n');
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));
`;

let child: ChildProcess;
let baseUrl: string;
beforeAll(async () => {
  child = spawn(process.execPath, ['-e', ENDPOINT], { stdio: ['ignore', 'pipe', 'inherit'] });
  baseUrl = await new Promise<string>((resolve) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      const port = /port (\d+)/.exec(d);
      if (port) resolve(`http://127.0.0.1:${port[1]}`);
    });
  });
});
afterAll(() => {
  child.kill();
});

function trial(source: RecordedModelSource, plan: FaultPlan = []) {
  const clock = new VirtualClock(START);
  const history = new History(clock);
  const faults = new HttpFaults({
    services: [recordedModelService('openai', baseUrl, source)],
    plan,
    clock,
    rng: new Rng(1),
    history,
  });
  return { clock, history, faults };
}

/** What the openai SDK's stream gives the agent: the text, or the error it threw. */
const streamed = () => async (): Promise<string> => {
  const client = new OpenAI({ apiKey: 'faultline-test-key', baseURL: `${baseUrl}/v1`, maxRetries: 0 });
  let text = '';
  try {
    const stream = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
    return text;
  } catch (error) {
    return `${text}|${(error as Error).message}`;
  }
};

describe('a streamed model answer, recorded and live', () => {
  // The endpoint stands in for the live gateway too: it answers any path, as the gateway passes the answer on.
  const gateway = (recording: Cassette): RecordedModelSource => ({
    kind: 'gateway',
    gateway: baseUrl,
    recording,
    onInfraError: () => undefined,
  });

  it('a live trial keeps the stream in its recording as text; the cassette replays it as a stream, paced and faultable', async () => {
    const cassette = new Cassette('openai', [], { scenario: 's', config: 'c', trialIndex: 0, seed: 1 });
    const rec = trial(gateway(cassette));
    const recorded = await runWithMsw(rec.faults, rec.clock, streamed());
    expect(recorded.kind === 'settled' && recorded.value).toBe('Hello');
    expect(cassette.entries[0]!.response.headers).toEqual({ 'content-type': 'text/event-stream; charset=utf-8' });
    expect(cassette.entries[0]!.response.body).toMatch(/^data: \{.*\n\ndata: \[DONE\]\n\n$/s);
    expect(eventsOf(rec.history.events, 'response')[0]).toMatchObject({ result: 'ok', stream: { events: 5, of: 5 } });

    // Offline, from the file's content: the same five events, one every 10 virtual ms.
    const replayed = Cassette.parse(JSON.stringify(cassette.toJSON()), 'x.cassette.json');
    const offline = trial({ kind: 'cassette', cassette: replayed, file: 'x.cassette.json', onMiss: () => undefined });
    const again = await runWithMsw(offline.faults, offline.clock, streamed());
    expect(again.kind === 'settled' && again.value).toBe('Hello');
    expect(eventsOf(offline.history.events, 'response')[0]).toMatchObject({
      t: 50,
      result: 'ok',
      stream: { events: 5, of: 5 },
    });

    const cut = trial({ kind: 'cassette', cassette: replayed, file: 'x.cassette.json', onMiss: () => undefined }, [
      { match: {}, fault: { kind: 'stream_cut', afterEvents: 2 } },
    ]);
    const broken = await runWithMsw(cut.faults, cut.clock, streamed());
    expect(broken.kind === 'settled' && broken.value).toBe('Hel|terminated');
    expect(eventsOf(cut.history.events, 'response')[0]).toMatchObject({
      result: 'error',
      stream: { events: 2, of: 5 },
    });
  });

  it('live forwards the stream, and its events reach the client as events', async () => {
    const live = trial(gateway(new Cassette('openai', [], { scenario: 's', config: 'c', trialIndex: 0, seed: 1 })), [
      { match: {}, fault: { kind: 'stream_malformed', afterEvents: 1 } },
    ]);
    const run = await runWithMsw(live.faults, live.clock, streamed());
    expect(run.kind === 'settled' && run.value).toMatch(/^\|.*JSON/);
    expect(eventsOf(live.history.events, 'response')[0]).toMatchObject({
      result: 'error',
      message: 'event 2 of 5 arrived malformed, not valid JSON (stream_malformed)',
    });
  });
});
