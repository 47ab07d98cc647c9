import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { History, RealClock, VirtualClock } from '../../core/index.js';
import { groupAlive, ProcessTable, TREE_VAR } from './ProcessTable.js';
import { runCommand } from './runCommand.js';
import { TIMED_OUT_END } from './timedOutEnd.testkit.js';

const real = new RealClock();

describe('runCommand', () => {
  it('collects the output and exit status of a command that exits', async () => {
    const result = await runCommand(
      { argv: ['sh', '-c', 'cat; echo err >&2; exit 3'], stdin: 'hello', timeoutMs: 5000 },
      { clock: real },
    );
    expect(result).toMatchObject({
      kind: 'exited',
      exitCode: 3,
      signal: null,
      stdout: 'hello',
      stderr: 'err\n',
      truncated: false,
    });
  });

  it('on timeout kills the whole group, grandchild included, and keeps what the command wrote', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-cmd-'));
    const table = new ProcessTable();
    const script = `echo partial > ${join(dir, 'out.txt')}; sleep 30 & echo started; sleep 30`;
    const result = await runCommand(
      { argv: ['sh', '-c', script], timeoutMs: 100, graceMs: 500 },
      { clock: real, processes: table },
    );
    expect(result).toMatchObject({
      kind: 'timed_out',
      timeoutMs: 100,
      killedWith: 'SIGTERM',
      signal: 'SIGTERM',
      stdout: 'started\n',
    });
    expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe('partial\n');
    expect(table.groups.map((g) => groupAlive(g.pgid))).toEqual([false]);
  });

  it('sends SIGKILL after the grace period to a command that ignores SIGTERM', async () => {
    const table = new ProcessTable();
    const result = await runCommand(
      { argv: ['sh', '-c', "trap '' TERM; echo up; while :; do sleep 0.05; done"], timeoutMs: 100, graceMs: 100 },
      { clock: real, processes: table },
    );
    expect(result).toMatchObject({ kind: 'timed_out', killedWith: 'SIGKILL', signal: 'SIGKILL', stdout: 'up\n' });
    expect(await table.sweep()).toEqual([]);
  });

  it('says when the program cannot be started', async () => {
    const result = await runCommand(
      { argv: ['/nonexistent/faultline-no-such-program'], timeoutMs: 1000 },
      { clock: real },
    );
    expect(result.kind).toBe('spawn_failed');
  });

  it('bounds the output it keeps', async () => {
    const result = await runCommand(
      { argv: ['sh', '-c', 'head -c 5000 /dev/zero | tr "\\0" x'], timeoutMs: 5000, maxOutputBytes: 100 },
      { clock: real },
    );
    expect(result).toMatchObject({ kind: 'exited', truncated: true });
    expect(result.stdout).toHaveLength(100);
  });

  it('holds virtual time while it runs and then moves it by the timeout that fired, recording no wall time', async () => {
    const clock = new VirtualClock(1000);
    const history = new History(clock);
    const table = new ProcessTable();
    table.attach(history);
    const run = await clock.run(() =>
      runCommand(
        { argv: ['sh', '-c', 'sleep 5'], timeoutMs: 50, graceMs: 200 },
        { clock, processes: table, service: 'builds', request: 'req-1' },
      ),
    );
    expect(run).toMatchObject({ kind: 'settled', at: 1050 });
    expect(history.events).toEqual([
      {
        seq: 0,
        t: 0,
        type: 'command_start',
        command: 'cmd-1',
        service: 'builds',
        argv: ['sh', '-c', 'sleep 5'],
        request: 'req-1',
      },
      { seq: 1, t: 50, ...TIMED_OUT_END },
    ]);
  });

  it('leaves a grandchild of a command that exited for the sweep to find and kill', async () => {
    const clock = new VirtualClock(0);
    const history = new History(clock);
    const table = new ProcessTable();
    table.attach(history);
    const result = await runCommand(
      { argv: ['sh', '-c', 'sleep 30 >/dev/null 2>&1 & echo bye'], timeoutMs: 5000 },
      { clock, processes: table },
    );
    expect(result).toMatchObject({ kind: 'exited', exitCode: 0, stdout: 'bye\n' });
    expect(await table.sweep(0)).toEqual(['cmd-1']);
    expect(history.events.at(-1)).toMatchObject({ type: 'process_left', command: 'cmd-1' });
    await real.sleep(50);
    expect(groupAlive(table.groups[0]!.pgid)).toBe(false);
  });

  it.each([
    ['setsid', 'setsid sleep 30 >/dev/null 2>&1 & echo bye'],
    [
      'a double fork into its own session',
      '(setsid sh -c "sleep 30 & exit 0" >/dev/null 2>&1 &) ; sleep 0.2; echo bye',
    ],
  ])(
    'finds and kills what left its group and session (%s): recorded as escaped, never a pid',
    async (_label, script) => {
      const clock = new VirtualClock(0);
      const history = new History(clock);
      const table = new ProcessTable();
      table.attach(history);
      const result = await runCommand(
        { argv: ['sh', '-c', script], timeoutMs: 5000, graceMs: 100 },
        { clock, processes: table },
      );
      expect(result).toMatchObject({ kind: 'exited', exitCode: 0, stdout: 'bye\n' });
      const marker = `${TREE_VAR}=${table.groups[0]!.marker}`;
      const carriers = (): number[] => processesWith(marker);
      expect(carriers()).not.toEqual([]);
      // The escapee is named by what it runs: `setsid` until it execs `sleep`. On a loaded machine
      // the sweep once came first and named it `setsid`; the claim is the escape, so wait for the exec.
      for (let waited = 0; waited < 30_000 && !carriers().every((pid) => commOf(pid) === 'sleep'); waited += 10)
        await real.sleep(10);
      expect(await table.sweep(0)).toEqual(['cmd-1']);
      expect(history.events.at(-1)).toEqual(sleepEscaped(script));
      expect(carriers()).toEqual([]);
    },
  );

  it('finds and kills what cleared its environment, left its session and was orphaned, from the tree seen while it ran', async () => {
    const clock = new VirtualClock(0);
    const history = new History(clock);
    const table = new ProcessTable();
    table.attach(history);
    // The env-cleared middle process lives 0.3 s: long enough to be sampled, then its sleep is orphaned.
    // The sleep's last digits are this process's id: another copy of the suite at the same time runs the same test.
    const sleep = `sleep 29.4731${String(process.pid % 10_000).padStart(4, '0')}`;
    const script = `env -i sh -c 'setsid ${sleep} >/dev/null 2>&1 & sleep 0.3'; echo bye`;
    const result = await runCommand(
      { argv: ['sh', '-c', script], timeoutMs: 5000, graceMs: 100 },
      { clock, processes: table },
    );
    expect(result).toMatchObject({ kind: 'exited', exitCode: 0, stdout: 'bye\n' });
    const sleeping = (): number[] => processesRunning(sleep);
    // Until its exec the orphan shows its parent's command line (a fork of `sh`): the 0.3 s the
    // middle process waits is time enough on a quiet machine, not a bound on a loaded one.
    for (let waited = 0; waited < 30_000 && sleeping().length === 0; waited += 10) await real.sleep(10);
    expect(sleeping()).toHaveLength(1);
    expect(await table.sweep(0)).toEqual(['cmd-1']);
    expect(history.events.at(-1)).toEqual(sleepEscaped(script));
    expect(sleeping()).toEqual([]);
  });
});

/** What process `pid` runs (its `comm`), or '' when it is gone. */
function commOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** Living processes whose command line is `args`. */
const processesRunning = (args: string): number[] =>
  livingWhere((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() === args);

/** Living processes whose environment holds `variable` (`NAME=value`). */
const processesWith = (variable: string): number[] =>
  livingWhere((pid) => readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(variable));

/** The pids of living (not zombie) processes that `holds`; one that ends while read is not. */
function livingWhere(holds: (pid: string) => boolean): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))) continue;
      if (holds(entry)) out.push(Number(entry));
    } catch {
      continue;
    }
  }
  return out;
}

/** The event a sweep writes for a `sh -c script` whose `sleep` outlived it. */
function sleepEscaped(script: string): unknown {
  return { seq: 2, t: 0, type: 'process_left', command: 'cmd-1', argv: ['sh', '-c', script], escaped: ['sleep'] };
}
