import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCommandReport } from './commandResult.js';

/** What stands where FAULTLINE_RESULT should be: each is read at once, or refused at once, never waited on. */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'command-result-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The report, or a failure if reading it takes longer than `ms` (a blocked read never settles). */
const within = <T>(p: Promise<T>, ms = 3_000): Promise<T> =>
  Promise.race([
    p,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms).unref()),
  ]);

describe('readCommandReport', () => {
  it('reads a regular file', async () => {
    const file = join(dir, 'ok.json');
    await writeFile(file, '{"outcome":"completed"}\n');
    expect(await within(readCommandReport(file))).toMatchObject({ kind: 'reported', outcome: 'completed' });
  });

  it('no file is no report', async () => {
    expect(await within(readCommandReport(join(dir, 'absent.json')))).toEqual({ kind: 'none' });
  });

  it.each([
    [
      'a FIFO no one writes',
      async (file: string): Promise<void> => void execFileSync('mkfifo', [file]),
      'FAULTLINE_RESULT is a FIFO, not a regular file',
    ],
    [
      'a link to /dev/zero',
      (file: string): Promise<void> => symlink('/dev/zero', file),
      'FAULTLINE_RESULT is a character device, not a regular file',
    ],
    [
      'a folder',
      async (file: string): Promise<void> => void execFileSync('mkdir', [file]),
      'FAULTLINE_RESULT is a folder, not a regular file',
    ],
  ] as const)('%s: refused at once, said plainly', async (label, make, says) => {
    const file = join(dir, label.replace(/[^a-z]+/gi, '-'));
    await make(file);
    const report = await within(readCommandReport(file));
    expect(report).toEqual({ kind: 'garbage', message: `${says}: it was not read` });
  });
});
