import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  HttpError,
  Rng,
  VirtualClock,
  systemError,
  type ToolContract,
  type Transport,
  type WireRequest,
} from '../core/index.js';
import { ClientRetries } from './ClientRetries.js';

const contract = (name: string): ToolContract => ({
  name,
  description: name,
  risk: 'write',
  input: z.object({}),
  honoursIdempotencyKeys: true,
  canQueryStatus: false,
});
const request: WireRequest = {
  request: 'req-1',
  tool: 'send_email',
  purpose: 'call',
  input: {},
  call: 'call-1',
  attempt: 1,
};

/** A transport that throws the scripted errors in turn, then answers ok; it notes when each send came. */
function scripted(clock: VirtualClock, errors: unknown[]): Transport & { sends: number[] } {
  const sends: number[] = [];
  return {
    tools: [contract('send_email'), contract('get_order')],
    sends,
    send() {
      sends.push(clock.now());
      const next = errors.shift();
      return next === undefined ? Promise.resolve('ok') : Promise.reject(next);
    },
  };
}

describe('ClientRetries (an SDK that retries below the caller, R10)', () => {
  it('declares its retries on the tools it wraps, and only those', () => {
    const clock = new VirtualClock(0);
    const client = new ClientRetries(scripted(clock, []), {
      maxRetries: 2,
      clock,
      rng: new Rng(1),
      tools: ['send_email'],
    });
    expect(client.tools.map((t) => [t.name, t.clientRetries])).toEqual([
      ['send_email', 2],
      ['get_order', undefined],
    ]);
  });

  it('resends a 503 and a reset connection up to maxRetries times, then gives the last error to the caller', async () => {
    const clock = new VirtualClock(0);
    const inner = scripted(clock, [
      new HttpError(503, 'busy'),
      systemError('ECONNRESET', 'socket hang up'),
      new HttpError(503, 'still busy'),
    ]);
    const client = new ClientRetries(inner, { maxRetries: 2, clock, rng: new Rng(1) });
    const run = await clock.run(() => client.send(request).catch((e: unknown) => (e as Error).message));
    expect(run.kind === 'settled' && run.value).toBe('still busy');
    expect(inner.sends).toHaveLength(3);
    // 0.5 s, then 1 s, each less up to 25% jitter.
    expect(inner.sends[1]! - inner.sends[0]!).toBeGreaterThan(375);
    expect(inner.sends[1]! - inner.sends[0]!).toBeLessThanOrEqual(500);
    expect(inner.sends[2]! - inner.sends[1]!).toBeGreaterThan(750);
    expect(inner.sends[2]! - inner.sends[1]!).toBeLessThanOrEqual(1_000);
  });

  it('waits a Retry-After of up to a minute, in either form, and answers with the retry', async () => {
    const clock = new VirtualClock(1_000_000);
    const at = new Date(1_000_000 + 30_000).toUTCString();
    const inner = scripted(clock, [
      new HttpError(429, 'slow down', {}, { 'retry-after': '7' }),
      new HttpError(429, 'slow down', {}, { 'retry-after': at }),
    ]);
    const client = new ClientRetries(inner, { maxRetries: 2, clock, rng: new Rng(1) });
    const run = await clock.run(() => client.send(request));
    expect(run.kind === 'settled' && run.value).toBe('ok');
    expect(inner.sends.map((t) => t - 1_000_000)).toEqual([0, 7_000, 30_000]);
  });

  it('does not retry what the SDKs do not retry (a 400), nor a tool it does not wrap', async () => {
    const clock = new VirtualClock(0);
    const bad = scripted(clock, [new HttpError(400, 'bad request')]);
    const run = await clock.run(() =>
      new ClientRetries(bad, { maxRetries: 2, clock, rng: new Rng(1) }).send(request).catch(() => 'refused'),
    );
    expect(run.kind === 'settled' && run.value).toBe('refused');
    expect(bad.sends).toHaveLength(1);
    const other = scripted(clock, [new HttpError(503, 'busy')]);
    const unwrapped = new ClientRetries(other, { maxRetries: 2, clock, rng: new Rng(1), tools: ['get_order'] });
    await clock.run(() => unwrapped.send(request).catch(() => 'refused'));
    expect(other.sends).toHaveLength(1);
  });
});
