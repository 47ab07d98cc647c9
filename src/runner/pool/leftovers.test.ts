import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resourceCounts, settledLeftovers } from './leftovers.js';

/** What a command agent's trial does last: removes its result folder, and awaits it. */
async function removeAFolder(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'faultline-leftovers-'));
  await writeFile(join(dir, 'result.json'), '{}');
  await rm(dir, { recursive: true, force: true });
}

describe('settledLeftovers', () => {
  it('does not count a request that has just completed (an awaited fs.rm of a folder) as left open', async () => {
    const before = resourceCounts();
    await removeAFolder();
    expect(await settledLeftovers(before)).toEqual({ timers: 0, other: [] });
  });

  it('still counts what is really left open (a timer is not among them)', async () => {
    const before = resourceCounts();
    const server = createServer().listen(0, '127.0.0.1');
    const timer = setTimeout(() => undefined, 60_000);
    try {
      await removeAFolder();
      expect((await settledLeftovers(before)).other).toEqual(['1 TCPServerWrap']);
    } finally {
      clearTimeout(timer);
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
