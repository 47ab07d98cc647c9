import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeExplore } from './executeExplore.js';
import type { Io } from './io.js';

function io(
  isTTY: boolean,
  env: Record<string, string> = {},
  signals: Io['signals'] = { on: () => undefined, off: () => undefined },
): { io: Io; err: () => string; out: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: {
      stdout: { write: (s) => (out.push(s), true) },
      stderr: { write: (s) => (err.push(s), true), isTTY, columns: 100 },
      env: { NO_COLOR: '1', ...env },
      signals,
      exit: (code) => {
        throw new Error(`exit ${code}`);
      },
    },
    err: () => err.join(''),
    out: () => out.join(''),
  };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faultline-explore-progress-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const request = (out: string) => ({
  scenarios: ['order-partial-write-no-idempotency'],
  runs: 20,
  seed: 1,
  out,
  replaceFaults: true,
});

describe('explore progress', () => {
  it('draws one line on a terminal, searching then shrinking, and clears it before the verdicts', async () => {
    const t = io(true);
    expect(await executeExplore(request(join(dir, 'tty')), t.io)).toBe(1);
    expect(t.err()).toMatch(/^\r\u001b\[2Kexplore order-partial-write-no-idempotency × rulebook: plan 1\/20/);
    expect(t.err()).toContain('shrinking, step');
    expect(t.err().endsWith('\r\u001b[2K')).toBe(true);
    expect(t.out()).toContain('shrunk in');
  });

  it('writes nothing to stderr when it is not a terminal, or in CI', async () => {
    for (const t of [io(false), io(true, { CI: 'true' })]) {
      expect(await executeExplore(request(join(dir, 'plain')), t.io)).toBe(1);
      expect(t.err()).toBe('');
    }
  });

  it('stops at the first Ctrl-C: no new trial, the plans so far counted, exit code 130', async () => {
    const signals = new EventEmitter();
    const t = io(false, {}, signals);
    const stop = setTimeout(() => signals.emit('SIGINT'), 300);
    try {
      expect(
        await executeExplore(
          { scenarios: ['read-timeout-retry'], runs: 1_000_000, seed: 1, out: join(dir, 'stopped') },
          t.io,
        ),
      ).toBe(130);
    } finally {
      clearTimeout(stop);
    }
    expect(t.out()).toMatch(
      /✓ read-timeout-retry × rulebook: \d+ plans, none failed \(stopped by a signal after \d+\)/,
    );
  });
});
