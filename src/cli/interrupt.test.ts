import { EventEmitter } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeReportAtomic } from '../report/write.js';
import { listenForInterrupt } from './interrupt.js';
import type { Io, StopSignal } from './io.js';

function fakeIo(pendingSignals?: StopSignal[]): { io: Io; exits: number[]; err: string[]; signals: EventEmitter } {
  const exits: number[] = [];
  const err: string[] = [];
  const signals = new EventEmitter();
  const io: Io = {
    stdout: { write: () => true },
    stderr: { write: (s) => (err.push(s), true) },
    env: {},
    signals,
    ...(pendingSignals && { pendingSignals }),
    exit: (code) => {
      exits.push(code);
      // Stands in for process.exit, which never returns.
      throw new Error(`exit ${code}`);
    },
  };
  return { io, exits, err, signals };
}

describe('listenForInterrupt', () => {
  it('aborts on the first SIGINT and exits 130 at once on the second', () => {
    const { io, exits, err, signals } = fakeIo();
    const { signal, exitCode } = listenForInterrupt(io);
    expect(signal.aborted).toBe(false);
    signals.emit('SIGINT');
    expect(signal.aborted).toBe(true);
    expect(exitCode()).toBe(130);
    expect(exits).toEqual([]);
    expect(err.join('')).toContain('faultline: interrupted; finishing the trial in progress');
    expect(() => signals.emit('SIGINT')).toThrow('exit 130');
    expect(exits).toEqual([130]);
  });

  it('stops a run on SIGTERM (143) and SIGHUP (129) as on SIGINT; the first signal decides the code', () => {
    for (const [name, code] of [
      ['SIGTERM', 143],
      ['SIGHUP', 129],
    ] as const) {
      const { io, exits, err, signals } = fakeIo();
      const interrupt = listenForInterrupt(io);
      signals.emit(name);
      expect(interrupt.signal.aborted).toBe(true);
      expect(interrupt.received()).toBe(name);
      expect(interrupt.exitCode()).toBe(code);
      expect(err.join('')).toContain(`faultline: interrupted by ${name}; finishing the trial in progress`);
      expect(() => signals.emit('SIGINT')).toThrow(`exit ${code}`);
      expect(exits).toEqual([code]);
    }
  });

  it('handles a signal that arrived before it listened', () => {
    const pending: StopSignal[] = ['SIGTERM'];
    const { io, signals } = fakeIo(pending);
    const interrupt = listenForInterrupt(io);
    expect(interrupt.signal.aborted).toBe(true);
    expect(interrupt.exitCode()).toBe(143);
    expect(pending).toEqual([]);
    expect(() => signals.emit('SIGTERM')).toThrow('exit 143');
  });

  it('is shared by every listener of one Io and stops listening when the last disposes', () => {
    const { io, signals } = fakeIo();
    const outer = listenForInterrupt(io);
    const inner = listenForInterrupt(io);
    expect(inner).toBe(outer);
    inner.dispose();
    expect(signals.listenerCount('SIGTERM')).toBe(1);
    outer.dispose();
    for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) expect(signals.listenerCount(name)).toBe(0);
    signals.emit('SIGINT');
    expect(outer.signal.aborted).toBe(false);
  });

  it('a second signal during a report write removes the temp file before it exits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-interrupt-'));
    try {
      const { io, exits, signals } = fakeIo();
      const interrupt = listenForInterrupt(io);
      signals.emit('SIGTERM');
      let seen: string[] = [];
      const write = writeReportAtomic(join(dir, 'faultline.json'), '{}', {
        beforeRename: () => {
          expect(readdirSync(dir)).toHaveLength(1);
          // The fake exit throws where process.exit would end the process: look before anything else runs.
          try {
            signals.emit('SIGTERM');
          } finally {
            seen = readdirSync(dir);
          }
        },
      });
      await expect(write).rejects.toThrow('exit 143');
      expect(exits).toEqual([143]);
      expect(seen).toEqual([]);
      interrupt.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
