import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { listenForInterrupt } from './interrupt.js';
import type { Io } from './io.js';

function fakeIo(): { io: Io; exits: number[]; err: string[]; signals: EventEmitter } {
  const exits: number[] = [];
  const err: string[] = [];
  const signals = new EventEmitter();
  const io: Io = {
    stdout: { write: () => true },
    stderr: { write: (s) => (err.push(s), true) },
    env: {},
    signals,
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
    const { signal } = listenForInterrupt(io);
    expect(signal.aborted).toBe(false);
    signals.emit('SIGINT');
    expect(signal.aborted).toBe(true);
    expect(exits).toEqual([]);
    expect(err.join('')).toContain('finishing the trial in progress');
    expect(() => signals.emit('SIGINT')).toThrow('exit 130');
    expect(exits).toEqual([130]);
  });

  it('stops listening once disposed', () => {
    const { io, signals } = fakeIo();
    const { signal, dispose } = listenForInterrupt(io);
    dispose();
    expect(signals.listenerCount('SIGINT')).toBe(0);
    signals.emit('SIGINT');
    expect(signal.aborted).toBe(false);
  });
});
