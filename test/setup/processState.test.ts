import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { processState, stateChanges } from './processState.js';

// The check the `shared` project makes after every file (leavesNothing.ts): each kind of state a
// file could leave is seen, and what it puts back is not.
describe('processState', () => {
  it('sees nothing when nothing changed', () => {
    expect(stateChanges(processState(), processState())).toEqual([]);
  });

  it('sees a working directory, a variable, an exit code, a listener and a global left behind', () => {
    const before = processState();
    const cwd = process.cwd();
    const onSigint = (): void => {};
    const fetch = globalThis.fetch;
    process.chdir(tmpdir());
    process.env.FAULTLINE_LEFT_BEHIND = '1';
    process.exitCode = 3;
    process.on('SIGINT', onSigint);
    globalThis.fetch = (() => Promise.reject(new Error('patched'))) as typeof fetch;
    (globalThis as Record<string, unknown>).faultlineLeftBehind = true;
    let after;
    try {
      after = processState();
    } finally {
      process.chdir(cwd);
      delete process.env.FAULTLINE_LEFT_BEHIND;
      process.exitCode = before.exitCode;
      process.off('SIGINT', onSigint);
      globalThis.fetch = fetch;
      delete (globalThis as Record<string, unknown>).faultlineLeftBehind;
    }
    expect(stateChanges(before, after)).toEqual([
      `the working directory: ${cwd} → ${tmpdir()}`,
      'process.env.FAULTLINE_LEFT_BEHIND: undefined → 1',
      `process.exitCode: ${String(before.exitCode)} → 3`,
      `process listeners of 'SIGINT': ${before.listeners.SIGINT!.length} → ${before.listeners.SIGINT!.length + 1} (or others)`,
      'fetch was replaced',
      'globals added: faultlineLeftBehind',
    ]);
    expect(stateChanges(before, processState())).toEqual([]);
  });

  it("does not count the CLI's one listener per process for late escapes, but counts another of that event", () => {
    const before = processState();
    const lateEscape = (): void => {};
    const other = (): void => {};
    process.on('uncaughtException', lateEscape);
    try {
      expect(stateChanges(before, processState())).toEqual([]);
      process.on('uncaughtException', other);
      expect(stateChanges(before, processState())).toHaveLength(1);
    } finally {
      process.off('uncaughtException', lateEscape);
      process.off('uncaughtException', other);
    }
  });
});
