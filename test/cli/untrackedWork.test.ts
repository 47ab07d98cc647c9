/**
 * A user's function agent that awaits real work faultline does not track (a file read, a dynamic import, of
 * TypeScript too through tsx's loader thread, a real immediate, a child process) with nothing on the trial's clock.
 * Before, the clock's first turn after such an await found no timer and nothing held, and called the trial hung at
 * once: a correct agent that reads its prompt from disk before its first call failed every trial, on workers and in
 * process (`--workers 0`). Now time stands still while that work finishes, and a body that waits on nothing real is
 * still hung. Variations of `run`, in process (./inProcess.ts); the workers are real child processes either way.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonReport } from '../../src/report/json.js';
import { tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';

const agent = (name: string, before: string, after: string): string => `import { readFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';

export default {
  name: '${name}',
  agent: {
    kind: 'function',
    task: 'read the prompt, then create an order',
    fn: async ({ tools }) => {
      ${before}
      await tools['create_order']({ clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 });
      ${after}
      return { outcome: 'completed', claims: [{ subject: 'orders:ref-1', status: 'succeeded' }] };
    },
  },
  goal: { effects: { 'order.created': 1 } },
};
`;

const REAL_WORK = `{
      const prompt = await readFile(new URL(import.meta.url), 'utf8');
      for (let i = 0; i < 5; i++) await readFile(new URL(import.meta.url));
      const { sep } = await import('node:path');
      // TypeScript helpers: each import() waits on tsx's loader thread, which no request of this thread shows.
      let helped = 0;
      for (const name of ['h1', 'h2', 'h3']) helped += (await import(new URL('./' + name + '.ts', import.meta.url).href)).one;
      if (helped !== 3) throw new Error('helpers not loaded');
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve, reject) => execFile(process.execPath, ['-e', ''], (e) => (e ? reject(e) : resolve())));
      if (!prompt || !sep) throw new Error('read nothing');
      }`;

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('untracked');
  for (const name of ['h1', 'h2', 'h3'])
    await writeFile(join(dir.path, `${name}.ts`), 'export const one: number = 1;\n');
  await writeFile(join(dir.path, 'reads-first.mjs'), agent('reads-first', REAL_WORK, REAL_WORK));
  await writeFile(
    join(dir.path, 'hangs-after-reading.mjs'),
    agent('hangs-after-reading', '', `${REAL_WORK}\n      await new Promise(() => {});`),
  );
});
afterAll(() => dir.cleanup());

async function cells(workers: string, out: string) {
  const r = await inProcess(
    ['run', 'reads-first.mjs', 'hangs-after-reading.mjs', '--k', '3', '--workers', workers, '--out', out],
    { cwd: dir.path },
  );
  if (r.code !== 0 && r.code !== 1) throw new Error(`exit ${r.code}: ${r.stderr}${r.stdout}`);
  const json = parseJsonReport(await readFile(join(dir.path, out, 'faultline.json'), 'utf8'), 'faultline.json');
  return {
    code: r.code,
    stdout: r.stdout,
    ends: Object.fromEntries(json.cells.map((c) => [c.scenario, c.metrics.ends])),
  };
}

describe('a function agent awaiting real work nothing tracks', () => {
  it.each([
    ['on workers', '1'],
    ['in process (--workers 0)', '0'],
  ])('%s: it is not called hung; one that then waits on nothing is', async (_label, workers) => {
    const r = await cells(workers, `out-${workers}`);
    expect(r.ends, r.stdout).toEqual({ 'reads-first': { agent_ended: 3 }, 'hangs-after-reading': { hung: 3 } });
    expect(r.code).toBe(1);
  });
});
