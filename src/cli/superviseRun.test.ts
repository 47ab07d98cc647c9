import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMatrix } from '../runner/run.js';
import { loadConfigs, loadScenarios } from '../scenario/library.js';
import { ExitCode } from './exitCodes.js';
import { listenForInterrupt } from './interrupt.js';
import type { Io, StopSignal } from './io.js';
import { reportRun } from './reportRun.js';
import { leaveWithSupervisor, SUPERVISED_ENV } from './supervisedEnv.js';
import { endOf, endOfCopy, supervises, v8ReportFilter } from './superviseRun.js';

const folder = mkdtempSync(join(tmpdir(), 'faultline-supervise-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function bufferedIo(env: Record<string, string> = {}): { io: Io; out: string[]; err: string[]; signals: EventEmitter } {
  const out: string[] = [];
  const err: string[] = [];
  const signals = new EventEmitter();
  const io: Io = {
    stdout: { write: (s) => (out.push(s), true) },
    stderr: { write: (s) => (err.push(s), true) },
    env,
    signals,
    exit: (code) => {
      throw new Error(`exit ${code}`);
    },
  };
  return { io, out, err, signals };
}

// V8's last words as it aborts a process whose heap ran out (Node 20), as they reach the supervisor's pipe.
const V8_REPORT =
  '\n<--- Last few GCs --->\n\n[123:0x55]  812 ms: Mark-Compact 95.1 (98.2) -> 94.9 (98.5) MB\n\n' +
  'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n 1: 0xb8 node::Abort()\n';

describe('endOf: how the copy that ran the trials ended', () => {
  it('its own exit code passes on, whatever it is: 0, 1, 2, 3, 130, 143', () => {
    for (const code of [0, 1, 2, 3, 130, 143]) expect(endOf(code, null, false)).toEqual({ kind: 'exited', code });
  });

  it("V8's report seen, but a normal exit (0, 1, 3): the exit code passes on", () => {
    for (const code of [0, 1, 3]) expect(endOf(code, null, true)).toEqual({ kind: 'exited', code });
  });

  it("a death: V8's report of an exhausted heap, a signal, or an abort's exit code", () => {
    expect(endOf(null, 'SIGABRT', true)).toEqual({
      kind: 'died',
      cause: 'out of memory: V8 ran out of heap and ended it with SIGABRT',
    });
    expect(endOf(134, null, true)).toEqual({
      kind: 'died',
      cause: 'out of memory: V8 ran out of heap and ended it with exit code 134',
    });
    expect(endOf(null, 'SIGKILL', false)).toEqual({ kind: 'died', cause: 'killed by SIGKILL' });
    expect(endOf(133, null, false)).toEqual({ kind: 'died', cause: 'aborted (exit code 133)' });
  });
});

describe("endOfCopy: V8's report from a copy that ended on its own was the agents' output", () => {
  it("text like V8's report, then an exit of its own (0, 1): the exit code stands, and every byte goes out in order", () => {
    for (const code of [0, 1]) {
      const seen: string[] = [];
      const filter = v8ReportFilter({ write: (s) => (seen.push(s), true) });
      filter.write('an agent logs its subprocess:\n');
      filter.write(V8_REPORT);
      filter.write('✓ huge-array × rulebook: 1/1 passed\n');
      expect(filter.outOfMemory()).toBe(true);
      expect(endOfCopy(filter, code, null)).toEqual({ kind: 'exited', code });
      expect(seen.join('')).toBe(`an agent logs its subprocess:\n${V8_REPORT}✓ huge-array × rulebook: 1/1 passed\n`);
    }
  });

  it("V8's report, then a signal or an abort's code: died of it, and the report stays held back", () => {
    const seen: string[] = [];
    const filter = v8ReportFilter({ write: (s) => (seen.push(s), true) });
    filter.write(`before\n${V8_REPORT}`);
    expect(endOfCopy(filter, null, 'SIGABRT')).toEqual({
      kind: 'died',
      cause: 'out of memory: V8 ran out of heap and ended it with SIGABRT',
    });
    expect(seen.join('')).toBe('before\n');
  });
});

describe("v8ReportFilter: the copy's stderr, passed through", () => {
  it('passes through what comes, progress and partial lines as they come, and holds back V8 report from its first line', () => {
    const seen: string[] = [];
    const filter = v8ReportFilter({ write: (s) => (seen.push(s), true) });
    filter.write('✓ rulebook × good: 1/1 passed\n');
    filter.write('\r[=====     ] 1/2');
    expect(seen).toEqual(['✓ rulebook × good: 1/1 passed\n', '\r[=====     ] 1/2']);
    expect(filter.outOfMemory()).toBe(false);
    filter.write(`a last line\n${V8_REPORT.slice(0, 20)}`);
    filter.write(V8_REPORT.slice(20));
    expect(filter.outOfMemory()).toBe(true);
    expect(seen.join('')).not.toMatch(/Last few GCs|FATAL ERROR|heap out of memory|node::Abort/);
    expect(seen.join('')).toContain('1/2a last line\n');
  });

  it('finds a report whose first line is cut between two chunks', () => {
    const seen: string[] = [];
    const filter = v8ReportFilter({ write: (s) => (seen.push(s), true) });
    filter.write('\n<--- Last few');
    filter.write(' GCs --->\nmore');
    expect(filter.outOfMemory()).toBe(true);
    expect(seen.join('').trim()).toBe('');
  });

  it('lets a held partial line go when nothing follows it', () => {
    const seen: string[] = [];
    const filter = v8ReportFilter({ write: (s) => (seen.push(s), true) });
    filter.write('done\nFATAL');
    filter.end();
    expect(seen.join('')).toBe('done\nFATAL');
    expect(filter.outOfMemory()).toBe(false);
  });
});

describe('supervises: which runs start a copy', () => {
  it('only --workers 0, from the binary (its own process), and not in the copy itself', () => {
    const own = { ...bufferedIo().io, ownProcess: true };
    expect(supervises({ workers: 0 }, own)).toBe(true);
    expect(supervises({}, own)).toBe(false);
    expect(supervises({ workers: 2 }, own)).toBe(false);
    expect(supervises({ workers: 0 }, bufferedIo().io)).toBe(false);
    const copy = {
      ...bufferedIo({ [SUPERVISED_ENV]: JSON.stringify({ journal: '/j', seed: 1 }) }).io,
      ownProcess: true,
    };
    expect(supervises({ workers: 0 }, copy)).toBe(false);
  });
});

describe('Interrupt.forward: the supervisor hands stop signals over', () => {
  it('while forwarding, each signal goes on, nothing aborts or exits (a second one too); taken back, they stop the run', () => {
    const { io, err, signals } = bufferedIo();
    const interrupt = listenForInterrupt(io);
    const sent: StopSignal[] = [];
    interrupt.forward((name) => sent.push(name));
    signals.emit('SIGTERM');
    signals.emit('SIGTERM');
    expect(sent).toEqual(['SIGTERM', 'SIGTERM']);
    expect(interrupt.signal.aborted).toBe(false);
    expect(err).toEqual([]);
    interrupt.forward(undefined);
    signals.emit('SIGINT');
    expect(interrupt.signal.aborted).toBe(true);
    interrupt.dispose();
  });
});

describe("reportRun of a run its process's death stopped", () => {
  const ran = async () =>
    runMatrix({
      scenarios: await loadScenarios(['read-timeout-retry']),
      configs: await loadConfigs(['rulebook']),
      k: 1,
      seed: 1,
    });
  const wallClock = { startedAt: '2026-01-05T09:00:00.000Z', finishedAt: '2026-01-05T09:00:02.000Z', durationMs: 2000 };
  const request = (out: string) => ({
    outDir: join(folder, out),
    view: 'summary' as const,
    gates: [],
    reporters: ['console', 'json'] as const,
    wallClock,
  });

  it('in a trial: exit 1 (that trial failed, and the run did not finish), the trial and the cause said', async () => {
    const run = await ran();
    const stopped = {
      reason: 'process-died' as const,
      cause: 'killed by SIGKILL',
      trial: 'read-timeout-retry × rulebook trial 0',
    };
    const { io, out, err } = bufferedIo();
    const code = await reportRun({ ...run, interrupted: true, stopped }, request('in-trial'), io);
    expect(code).toBe(ExitCode.GateFailed);
    expect(err.join('')).toContain(
      'faultline: the process that ran the trials died in read-timeout-retry × rulebook trial 0 (killed by SIGKILL); ' +
        'the reports cover the 0 trials that finished before it, and that one, judged crashed',
    );
    expect(out.join('')).toContain("stopped: the CLI's own process died in read-timeout-retry × rulebook trial 0");
    const json = JSON.parse(readFileSync(join(folder, 'in-trial', 'faultline.json'), 'utf8')) as { run: unknown };
    expect(json.run).toMatchObject({ interrupted: true, stopped });
  });

  it('with no trial running: exit 3, the harness ended, even when every gate held', async () => {
    const run = await ran();
    const { io, err } = bufferedIo();
    const stopped = { reason: 'process-died' as const, cause: 'killed by SIGKILL' };
    const code = await reportRun({ ...run, interrupted: true, stopped }, request('no-trial'), io);
    expect(code).toBe(ExitCode.Crash);
    expect(err.join('')).toContain('the reports cover the 1 trials that finished\n');
  });
});

describe("leaveWithSupervisor: the copy leaves when its supervisor's IPC channel closes", () => {
  it('exits 3 through the process.exit it found, even when a trial replaced it since; without a channel, listens to nothing', () => {
    const exits: string[] = [];
    const unrefs: string[] = [];
    const proc = Object.assign(new EventEmitter(), {
      channel: { unref: () => unrefs.push('unref') },
      exit: (code: number) => exits.push(`real ${code}`),
    });
    leaveWithSupervisor(proc as unknown as NodeJS.Process);
    proc.exit = (code: number) => exits.push(`guard ${code}`);
    expect(unrefs).toEqual(['unref']);
    proc.emit('disconnect');
    expect(exits).toEqual(['real 3']);
    const alone = Object.assign(new EventEmitter(), { channel: undefined, exit: () => exits.push('alone') });
    leaveWithSupervisor(alone as unknown as NodeJS.Process);
    expect(alone.listenerCount('disconnect')).toBe(0);
  });
});
