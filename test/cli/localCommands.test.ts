/**
 * The worked example in scenarios/examples/local-commands, from a temp folder: the first run
 * through the real binary, the other runs and the replays in process (`./inProcess.ts`; each
 * command is a process of its own either way).
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';

const EXAMPLE = fileURLToPath(new URL('../../scenarios/examples/local-commands/', import.meta.url));

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('local-commands');
});
afterAll(() => dir.cleanup());

describe('worked example: command tools (R19) and the task manager (R20)', () => {
  it('passes a build that times out with its whole process group killed', async () => {
    const r = await faultline(['run', join(EXAMPLE, 'build-timeout.yaml'), '--k', '2'], { cwd: dir.path });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /✓ build-times-out\s+1\.000 \[0\.16, 1\.00\]\s+1\.000 \[0\.03, 1\.00\]\s+1\.000 \[0\.29, 1\.00\]\s+2\/2/,
    );
    const replay = await inProcess(['replay', join(EXAMPLE, 'build-timeout.yaml'), '--seed', '1', '--trial', '0'], {
      cwd: dir.path,
    });
    expect(replay.stdout).toMatch(/cmd-1 timed out after 300ms, SIGTERM sent, signal SIGTERM stdout "building app\\n"/);
  });

  it('fails process-cleanup for a build that leaves its grandchild running', async () => {
    const r = await inProcess(['run', join(EXAMPLE, 'build-leaks.yaml'), '--k', '2'], { cwd: dir.path });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ build-leaks-grandchild × rulebook: 2 of 2 trials failed \(process-cleanup\)/);
    const replay = await inProcess(['replay', join(EXAMPLE, 'build-leaks.yaml'), '--seed', '1', '--trial', '0'], {
      cwd: dir.path,
    });
    expect(replay.stdout).toContain(
      "cmd-1 (sh -c sleep 30 >/dev/null 2>&1 & echo built app) left a process alive at the trial's end",
    );
  });

  it('passes the careful agent on a task the manager lost track of, and fails the one that calls it done', async () => {
    // --workers 0: the verdict is the subject, which the isolation does not change, and a run on workers would start
    // a worker's host process and load faultline and the example's task service in it again.
    const careful = await inProcess(
      ['run', join(EXAMPLE, 'task-lost-track-careful.yaml'), '--k', '2', '--workers', '0'],
      { cwd: dir.path },
    );
    expect(careful.code, careful.stdout).toBe(0);
    const naive = await inProcess(
      ['run', join(EXAMPLE, 'task-lost-track-unknown-as-success.yaml'), '--k', '2', '--workers', '0'],
      { cwd: dir.path },
    );
    expect(naive.code).toBe(1);
    expect(naive.stdout).toMatch(
      /✗ task-lost-track-unknown-as-success × rulebook: 2 of 2 trials failed \(goal-state\)/,
    );
  });
});
