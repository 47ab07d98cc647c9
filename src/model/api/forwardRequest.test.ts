import { spawn } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { forwardRequest } from './forwardRequest.js';

let server: Server | undefined;
afterEach(
  () => new Promise<void>((done) => (server ? (server.closeAllConnections(), server.close(() => done())) : done())),
);

/** A real server on 127.0.0.1 that answers with `answer`, or never when it is undefined. */
async function listen(answer: ((res: ServerResponse) => void) | undefined): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    if (answer) req.on('end', () => answer(res));
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
}

describe('forwardRequest', () => {
  it('reads the whole answer, status, headers and body', async () => {
    const url = await listen((res) => res.writeHead(201, { 'x-request-id': 'r1' }).end('{"ok":true}'));
    const answer = await forwardRequest(
      url,
      'POST',
      { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
      '{}',
      { timeoutMs: 2_000, keepAlive: false },
    );
    expect(answer).toMatchObject({ status: 201, body: '{"ok":true}' });
    expect(answer.headers['x-request-id']).toBe('r1');
  });

  it('fails with ETIMEDOUT when a provider takes the request and never answers', async () => {
    const url = await listen(undefined);
    await expect(forwardRequest(url, 'POST', {}, '{}', { timeoutMs: 200, keepAlive: false })).rejects.toMatchObject({
      code: 'ETIMEDOUT',
      message: 'no answer within 200 ms',
    });
  });

  it('without keep-alive, gives the answer only once its connection is closed: nothing of it outlives the request', async () => {
    // The server in a child process: a server in this one would hold sockets of its own.
    const child = spawn(
      process.execPath,
      [
        '-e',
        "require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => s.end('ok')); " +
          "}).listen(0, '127.0.0.1', function () { console.log(this.address().port); })",
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const port = await new Promise<string>((done) =>
        child.stdout.setEncoding('utf8').once('data', (d: string) => done(d.trim())),
      );
      const sockets = (): number => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;
      const before = sockets();
      for (let i = 0; i < 3; i++) {
        expect(
          (await forwardRequest(`http://127.0.0.1:${port}/v1/messages`, 'POST', {}, '{}', { keepAlive: false })).body,
        ).toBe('ok');
        expect(sockets()).toBe(before);
      }
    } finally {
      child.kill();
    }
  });
});
