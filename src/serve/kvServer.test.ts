import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { History, VirtualClock } from '../core/index.js';
import { createWorld } from '../world/createWorld.js';
import { serveKv } from './kvServer.js';

describe('the checkpoint store, served', () => {
  it('answers GET, PUT and DELETE of <url>/<key>, records each write, and shows in the snapshot only once written', async () => {
    const clock = new VirtualClock(0);
    const history = new History(clock);
    const world = createWorld(clock, {}, ['orders']);
    world.kv.attach(history);
    const before = world.snapshot();
    expect(before).not.toHaveProperty('kv');
    const kv = await serveKv(world.kv);
    try {
      const at = (key: string) => `${kv.url}/${encodeURIComponent(key)}`;
      expect((await fetch(at('order:po-1'))).status).toBe(404);
      expect((await fetch(at('order:po-1'), { method: 'PUT', body: '{"status":"pending"}' })).status).toBe(204);
      const got = await fetch(at('order:po-1'));
      expect([got.status, await got.text()]).toEqual([200, '{"status":"pending"}']);
      expect(world.snapshot().kv).toEqual({ 'order:po-1': '{"status":"pending"}' });
      expect(world.snapshot().hash).not.toBe(before.hash);
      expect((await fetch(at('order:po-1'), { method: 'DELETE' })).status).toBe(204);
      expect((await fetch(at('order:po-1'))).status).toBe(404);
      // Emptied again, the snapshot is the one a trial that never wrote has.
      expect(world.snapshot()).toEqual(before);
      const bad = await fetch(`${kv.url}/${'k'.repeat(300)}`, { method: 'PUT', body: 'x' });
      expect([bad.status, await bad.text()]).toEqual([
        400,
        'expected a key of 1 to 256 characters, got 300 characters\n',
      ]);
      expect((await fetch(at('a'), { method: 'POST', body: 'x' })).status).toBe(405);
      // One segment: a slash in a key is sent encoded.
      const raw = await fetch(`${kv.url}/a/b`, { method: 'PUT', body: 'x' });
      expect([raw.status, await raw.text()]).toEqual([
        400,
        'expected one URL-encoded path segment after /kv/; got /kv/a/b\n',
      ]);
      expect((await fetch(at('a/b'), { method: 'PUT', body: 'x' })).status).toBe(204);
      expect((await fetch(at('a/b'), { method: 'DELETE' })).status).toBe(204);
      expect((await fetch(`${kv.url.replace(/\/kv$/, '')}/other`)).status).toBe(404);
      // Writes are kept state, not tool effects: the ledger stays empty.
      expect(world.ledger.effects).toEqual([]);
      expect(history.events.filter((e) => e.type === 'kv').map((e) => ({ ...e, seq: 0 }))).toEqual([
        { seq: 0, t: 0, type: 'kv', op: 'set', key: 'order:po-1', value: '{"status":"pending"}' },
        { seq: 0, t: 0, type: 'kv', op: 'delete', key: 'order:po-1' },
        { seq: 0, t: 0, type: 'kv', op: 'set', key: 'a/b', value: 'x' },
        { seq: 0, t: 0, type: 'kv', op: 'delete', key: 'a/b' },
      ]);
    } finally {
      await kv.close();
    }
  });

  it('a client that goes away mid-PUT writes nothing, and the store ends it quietly (no unhandled rejection)', async () => {
    const clock = new VirtualClock(0);
    const history = new History(clock);
    const world = createWorld(clock, {}, ['orders']);
    world.kv.attach(history);
    const kv = await serveKv(world.kv);
    const rejections: unknown[] = [];
    const heard = (reason: unknown): void => void rejections.push(reason);
    process.on('unhandledRejection', heard);
    try {
      const url = new URL(kv.url);
      await new Promise<void>((resolve, reject) => {
        const socket = net.connect(Number(url.port), url.hostname, () => {
          socket.write(`PUT ${url.pathname}/k HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nabc`);
          setTimeout(() => {
            socket.destroy();
            resolve();
          }, 50);
        });
        socket.on('error', reject);
      });
      // The server hears the close after the client's destroy: give it a few turns of the event loop.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(rejections).toEqual([]);
      expect(world.kv.get('k')).toBeUndefined();
      expect(history.events.filter((e) => e.type === 'kv')).toEqual([]);
      // And it still answers.
      expect((await fetch(`${kv.url}/k`, { method: 'PUT', body: 'v' })).status).toBe(204);
    } finally {
      process.off('unhandledRejection', heard);
      await kv.close();
    }
  });
});
