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
      expect((await fetch(`${kv.url.replace(/\/kv$/, '')}/other`)).status).toBe(404);
      // Writes are kept state, not tool effects: the ledger stays empty.
      expect(world.ledger.effects).toEqual([]);
      expect(history.events.filter((e) => e.type === 'kv').map((e) => ({ ...e, seq: 0 }))).toEqual([
        { seq: 0, t: 0, type: 'kv', op: 'set', key: 'order:po-1', value: '{"status":"pending"}' },
        { seq: 0, t: 0, type: 'kv', op: 'delete', key: 'order:po-1' },
      ]);
    } finally {
      await kv.close();
    }
  });
});
