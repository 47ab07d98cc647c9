import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from './VirtualClock.js';

/**
 * Real work a body awaits that no one `hold`s: a user's agent that reads a file, yields to the event loop or runs a
 * child process before its next call. With nothing on the clock, the first turn after it used to call the body hung.
 * (Its own graph: it starts a child process and a server; vitest.config.ts, OWN_PROCESS_STATE.)
 */
describe('VirtualClock and untracked real work', () => {
  it('lets a body finish a file read, a real immediate and a child process before calling it hung', async () => {
    const clock = new VirtualClock();
    const run = await clock.run(async () => {
      await clock.sleep(5);
      const text = await readFile(fileURLToPath(import.meta.url), 'utf8');
      await new Promise<void>((resolve) => setImmediate(resolve));
      const code = await new Promise<number>((resolve) =>
        execFile(process.execPath, ['-e', 'setTimeout(() => {}, 50)'], (error) => resolve(error ? 1 : 0)),
      );
      await clock.sleep(10);
      return `${text.length > 0}/${code}`;
    });
    expect(run).toEqual({ kind: 'settled', value: 'true/0', at: 15 });
  });

  it('reads files one after another with nothing on the clock between them', async () => {
    const clock = new VirtualClock();
    const run = await clock.run(async () => {
      let total = 0;
      for (let i = 0; i < 20; i++) total += (await readFile(fileURLToPath(import.meta.url))).length > 0 ? 1 : 0;
      return total;
    });
    expect(run).toEqual({ kind: 'settled', value: 20, at: 0 });
  });

  it('still calls a body hung that waits on nothing real, at the time it stalled, with a server listening beside it', async () => {
    const clock = new VirtualClock();
    // A listening server is a long-lived handle of the process, not work the body waits on.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const run = await clock.run(async () => {
        await clock.sleep(7);
        await readFile(fileURLToPath(import.meta.url));
        await new Promise(() => {});
      });
      expect(run).toEqual({ kind: 'hung', at: 7 });
    } finally {
      server.close();
    }
  });
});
