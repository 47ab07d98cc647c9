import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  installOutboundGuard,
  interceptionUp,
  isLoopbackHost,
  isSdkTelemetry,
  OUTSIDE_TRIAL_CODE,
} from './outboundGuard.js';

// What the guard wraps: it records what reached it, and never sends anything.
const reached: string[] = [];
const original = globalThis.fetch;
beforeAll(() => {
  globalThis.fetch = (input) => {
    reached.push(input instanceof Request ? input.url : String(input));
    return Promise.resolve(new Response('sent', { status: 200 }));
  };
  installOutboundGuard();
  installOutboundGuard();
});
afterAll(() => {
  globalThis.fetch = original;
});

describe('installOutboundGuard', () => {
  it('outside a trial: answers a request to another machine with a 403 here, and sends nothing', async () => {
    reached.length = 0;
    const res = await fetch('https://api.openai.com/v1/traces/ingest', {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test-abcdefgh12345678' },
      body: '{}',
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('x-faultline-refused')).toBe(OUTSIDE_TRIAL_CODE);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe(OUTSIDE_TRIAL_CODE);
    expect(body.error.message).toMatch(
      /^faultline refused POST https:\/\/api\.openai\.com\/v1\/traces\/ingest: agent code sent it outside its trial/,
    );
    expect(reached).toEqual([]);
  });

  it('never repeats a key that is in the URL', async () => {
    const res = await fetch(new Request('https://example.test/keys/sk-test-abcdefgh12345678?x=1'));
    expect(await res.text()).not.toContain('abcdefgh12345678');
  });

  it('lets requests to this machine through, and everything while a trial intercepts', async () => {
    reached.length = 0;
    await fetch('http://127.0.0.1:9/x');
    await fetch(new URL('http://localhost:9/y'));
    const down = interceptionUp();
    await fetch('https://api.openai.com/v1/traces/ingest', { method: 'POST' });
    down();
    down();
    expect((await fetch('https://api.openai.com/v1/x')).status).toBe(403);
    expect(reached).toEqual([
      'http://127.0.0.1:9/x',
      'http://localhost:9/y',
      'https://api.openai.com/v1/traces/ingest',
    ]);
  });
});

describe('the hosts and endpoints it knows', () => {
  it('loopback: 127.0.0.0/8, localhost and its subdomains, ::1; nothing else', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', 'api.localhost', '[::1]', '::1'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['api.openai.com', '10.0.0.1', '0.0.0.0', 'localhost.example.com', '128.0.0.1'])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it("an SDK's telemetry: the Agents SDK's trace export, by method, origin and path", () => {
    expect(isSdkTelemetry('post', 'https://api.openai.com/v1/traces/ingest')).toBe(true);
    expect(isSdkTelemetry('GET', 'https://api.openai.com/v1/traces/ingest')).toBe(false);
    expect(isSdkTelemetry('POST', 'https://api.openai.com/v1/chat/completions')).toBe(false);
    expect(isSdkTelemetry('POST', 'not a url')).toBe(false);
  });
});
