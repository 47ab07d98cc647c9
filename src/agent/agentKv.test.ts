import { describe, expect, it } from 'vitest';
import { agentKv } from './agentKv.js';

describe('ctx.kv', () => {
  it('reads and writes text; refuses a value that is not text; an abandoned start reads and writes nothing', async () => {
    const store = new Map<string, string>();
    let alive = true;
    const kv = agentKv(store, { restart: 0, alive: () => alive });
    await kv.set('a', '1');
    expect(await kv.get('a')).toBe('1');
    await expect(kv.set('b', { n: 1 } as unknown as string)).rejects.toThrow(
      'ctx.kv.set(key, value): expected the value as text (JSON.stringify it), got object',
    );
    await expect(kv.get('')).rejects.toThrow(
      'ctx.kv.get(key): expected a key of 1 to 256 characters, got 0 characters',
    );
    alive = false;
    let settled = false;
    void kv.set('a', '2').then(() => (settled = true));
    void kv.get('a').then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    expect(store.get('a')).toBe('1');
  });
});
