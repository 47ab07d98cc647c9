import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, start, tempDir, type Finished } from './faultline.js';
import { inProcess } from './inProcess.js';
import {
  agentScenario,
  EXITS_SEVEN,
  LOOPS_FOREVER,
  REJECTS_UNHANDLED,
  SABOTAGES_DATE,
  THROWS_IN_TIMER,
} from './misbehavingAgents.js';

/**
 * The commands a failing run prints (`replay`, `sweep --replay`) and `explore` run the agent's
 * code on a worker, as `run` does: an agent that exits, rejects without a handler or spins gets
 * the verdict `run` gives it, with what it did before, and a stop signal ends the command.
 * The first replay and the signals go through the real binary; the other cases run the CLI's
 * entry in this process (./inProcess.ts): the agents misbehave on the CLI's workers either way.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('isolated');
  await writeFile(join(dir.path, 'exits.ts'), agentScenario('exits', EXITS_SEVEN));
  await writeFile(join(dir.path, 'rejects.ts'), agentScenario('rejects', REJECTS_UNHANDLED));
  await writeFile(join(dir.path, 'loops.ts'), agentScenario('loops', LOOPS_FOREVER));
  await writeFile(join(dir.path, 'exits-zero.ts'), agentScenario('exits-zero', 'process.exit(0);'));
  await writeFile(join(dir.path, 'timer.ts'), agentScenario('timer', THROWS_IN_TIMER));
  await writeFile(join(dir.path, 'date.ts'), agentScenario('date', SABOTAGES_DATE));
  // Each signal's own endless loop, which first leaves a mark: the signal then comes while it spins.
  for (const signal of ['SIGTERM', 'SIGINT'])
    await writeFile(
      join(dir.path, `loops-${signal.toLowerCase()}.ts`),
      agentScenario(
        `loops-${signal.toLowerCase()}`,
        `(await import('node:fs')).writeFileSync(${JSON.stringify(join(dir.path, `spinning-${signal}`))}, '');\n${LOOPS_FOREVER}`,
      ),
    );
  // Loads in the CLI, spins as it loads on a worker: the worker never says it is ready.
  await writeFile(
    join(dir.path, 'spins-at-load.ts'),
    `import { isMainThread } from 'node:worker_threads';\nif (!isMainThread) for (;;) { /* spin */ }\n${agentScenario('spins-at-load', '')}`,
  );
});
afterAll(() => dir.cleanup());

const binary = (args: readonly string[]) => faultline(args, { cwd: dir.path });
/** Whether a worker host process (`node -e …worker_threads…`) of this process is alive. */
const hosted = (): boolean => {
  try {
    return (
      execFileSync('pgrep', ['-P', String(process.pid), '-f', 'worker_threads'], { encoding: 'utf8' }).trim() !== ''
    );
  } catch {
    return false;
  }
};
const run = (args: readonly string[], options: { signals?: EventEmitter } = {}) =>
  inProcess(args, { cwd: dir.path, ...options });
/**
 * The watchdog of the trials of an agent that spins for ever, where what it did before the loop
 * is not the claim: the verdict is `hung` however long the watchdog waits, and its thread spins a
 * core until then (twice per hung trial of replay, sweep --replay and explore, which run it again
 * to stream its history), so the wait is short.
 */
const SPIN_MS = '500';

describe('faultline run --workers 0: agents in the CLI process', () => {
  it('process.exit(0), an unhandled rejection, a throw in a timer and Date.prototype sabotage each crash their own trial; the run reports and exits 1', async () => {
    // The binary: agent code that calls process.exit runs in the CLI's own process here.
    const r = await binary([
      'run',
      './exits-zero.ts',
      './rejects.ts',
      './timer.ts',
      './date.ts',
      './exits.ts',
      '--workers',
      '0',
      '--k',
      '1',
      '--reporter',
      'console',
      '--reporter',
      'json',
      '--out',
      'in-process',
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const line = (name: string): string =>
      new RegExp(`✗ ${name} × rulebook: .*\\n\\s+trial 0: (.*)`).exec(r.stdout)?.[1] ??
      `no failure line for ${name} in:\n${r.stdout}`;
    expect(line('exits-zero')).toContain('the agent crashed before finishing: the agent called process.exit(0)');
    expect(line('exits')).toContain('the agent crashed before finishing: the agent called process.exit(7)');
    expect(line('rejects')).toContain(
      'the agent crashed before finishing: unhandled promise rejection: Error: nobody handles this',
    );
    expect(line('timer')).toContain('the agent crashed before finishing: uncaught exception: Error: boom in a timer');
    expect(line('date')).toContain(
      "the agent changed the process's shared globals (Date.prototype.toISOString was replaced)",
    );
    const report = JSON.parse(await readFile(join(dir.path, 'in-process', 'faultline.json'), 'utf8')) as {
      cells: unknown[];
    };
    expect(report.cells).toHaveLength(5);
  });
});

describe('faultline run --workers 0: an agent that never gives the thread back', () => {
  it('a synchronous loop past --trial-timeout ends the run with the reports of the hung trial, its replay and exit 1', async () => {
    // The binary: the loop holds the CLI's own thread, so only the watchdog thread can end the run.
    const out = join(dir.path, 'hung-reports');
    const running = binary([
      'run',
      './loops.ts',
      '--workers',
      '0',
      '--k',
      '1',
      '--trial-timeout',
      SPIN_MS,
      '--out',
      out,
    ]);
    const hang = new Promise<'still running'>((r) => setTimeout(() => r('still running'), 120_000).unref());
    const r = await Promise.race([running, hang]);
    expect(r).not.toBe('still running');
    if (r === 'still running') return;
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      `faultline: trial 0 of loops × rulebook hung: no sign of life for ${SPIN_MS} ms in the CLI's own process (--workers 0; a synchronous loop?)`,
    );
    expect(r.stderr).toContain('replay it on a worker, where a hung trial ends as such: faultline replay ./loops.ts');
    // Nothing of Node's own about the inspector the watchdog used.
    expect(r.stderr).not.toContain('debugger');
    expect(r.stdout).toMatch(new RegExp(`trial 0: goal-state: the agent hung: no sign of life for ${SPIN_MS} ms`));
    const report = JSON.parse(await readFile(join(out, 'faultline.json'), 'utf8')) as {
      run: { interrupted: boolean; trials: number; failedTrials: number };
    };
    expect(report.run).toMatchObject({ interrupted: true, trials: 1, failedTrials: 1 });
  });
});

describe('faultline replay of a misbehaving agent', () => {
  it('process.exit(7): exit 1 with the crashed verdict, and the order it created before is in the timeline and the evidence', async () => {
    const r = await binary(['replay', './exits.ts', '--seed', '1', '--trial', '0']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('exits × rulebook, seed 1, trial 0: failed (goal-state)');
    expect(r.stdout).toMatch(/effect order\.created key=ref-1/);
    expect(r.stdout).toContain('goal-state: the agent crashed before finishing: the agent called process.exit(7)');
    expect(r.stdout).not.toContain('happened 0 times');
  });

  it('an unhandled rejection: exit 1 with the crashed verdict, no raw stack', async () => {
    const r = await run(['replay', './rejects.ts']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain(
      'the agent crashed before finishing: unhandled promise rejection: Error: nobody handles this',
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a synchronous endless loop: hung within the watchdog, with the history up to the loop', async () => {
    // Not SPIN_MS: the history up to the loop is the claim, and the agent must reach its loop before the watchdog fires.
    const r = await run(['replay', './loops.ts', '--trial-timeout', '1500', '--json']);
    expect(r.code, r.stderr).toBe(1);
    const history = JSON.parse(r.stdout) as { type: string; effect?: string; status?: string; message?: string }[];
    expect(history.some((e) => e.type === 'effect' && e.effect === 'order.created')).toBe(true);
    expect(history.at(-1)).toMatchObject({
      type: 'trial_end',
      status: 'hung',
      message: expect.stringMatching(/no answer within the 1500 ms wall-clock watchdog/) as unknown,
    });
  });

  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    it(`a synchronous endless loop under a watchdog that never fires: ${signal} ends it with ${code}`, async () => {
      const started = start(['replay', `./loops-${signal.toLowerCase()}.ts`, '--trial-timeout', '600000'], {
        cwd: dir.path,
      });
      // Once the agent is in its loop (it marks the moment), not after a fixed wait: a spinning worker burns a core.
      const spinning = async (): Promise<boolean> =>
        access(join(dir.path, `spinning-${signal}`)).then(
          () => true,
          () => false,
        );
      let ended: Finished | undefined;
      void started.done.then((r) => (ended = r));
      while (ended === undefined && !(await spinning())) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(ended, 'the replay ended before its agent spun').toBeUndefined();
      started.child.kill(signal);
      const r = await started.done;
      expect(r.code, r.stderr).toBe(code);
      expect(r.signal).toBeNull();
    });
  }
});

describe('faultline sweep --replay and explore of a misbehaving agent', () => {
  it('sweep --replay: exit 1 with the verdict', async () => {
    const r = await run([
      'sweep',
      './exits.ts',
      '--config',
      'rulebook',
      '--fault',
      'rate_limit',
      '--lambda',
      '0.1',
      '--replay',
      '0',
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('the agent called process.exit(7)');
  });

  it('sweep of an endless loop: every trial hung within the watchdog, exit 0 with its reports', async () => {
    const r = await run([
      'sweep',
      './loops.ts',
      '--config',
      'rulebook',
      '--fault',
      'rate_limit',
      '--lambda',
      '0',
      '--k',
      '1',
      '--trial-timeout',
      SPIN_MS,
      '--reporter',
      'console',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('loops');
  });

  // explore's IsolatedTrials, and run's pool (sweep and compare run through it too): none waits on a worker still starting.
  it.each([
    ['explore', ['explore', './spins-at-load.ts', '--runs', '1', '--trial-timeout', '1500'], 'explore: '],
    [
      'run --workers 2',
      ['run', './spins-at-load.ts', '--workers', '2', '--k', '4', '--reporter', 'console'],
      'seed 1, k = 4',
    ],
    [
      'sweep',
      ['sweep', './spins-at-load.ts', '--workers', '2', '--k', '2', '--lambda', '0', '--reporter', 'console'],
      '',
    ],
  ])(
    '%s of an agent whose worker never finishes loading: SIGTERM ends it with 143 and its report, no worker left',
    async (_name, args, reported) => {
      const signals = new EventEmitter();
      const running = run(args, { signals });
      // The signal once a worker's process is there: before it, the CLI had no worker to wait for.
      while (!hosted()) await new Promise((r) => setTimeout(r, 100));
      signals.emit('SIGTERM');
      // A generous bound that only a hang reaches: the stopped worker is not waited for.
      const hang = new Promise<'still running'>((r) => setTimeout(() => r('still running'), 120_000).unref());
      const r = await Promise.race([running, hang]);
      expect(r).not.toBe('still running');
      if (r === 'still running') return;
      expect(r.code, r.stderr).toBe(143);
      expect(r.stderr).toContain('interrupted by SIGTERM');
      expect(r.stdout).toContain(reported);
      // The worker processes were killed, not left spinning: a moment for the last to be reaped.
      for (let i = 0; i < 20 && hosted(); i++) await new Promise((r) => setTimeout(r, 100));
      expect(hosted()).toBe(false);
    },
  );

  for (const [name, reason] of [
    ['exits', 'the agent called process.exit(7)'],
    ['loops', `no answer within the ${SPIN_MS} ms wall-clock watchdog`],
  ] as const) {
    it(`explore ${name}: exit 1, the scenario fails with no added fault, with the verdict and a replay command that works`, async () => {
      // Two plans, as three did: one exercises its faults, one fires none; each crashed or hung trial costs a fresh worker.
      // The agent that exits does so well within 1500 ms; the one that spins is hung whatever the watchdog (SPIN_MS).
      const timeout = name === 'loops' ? SPIN_MS : '1500';
      const r = await run(['explore', `./${name}.ts`, '--runs', '2', '--trial-timeout', timeout]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toContain(`${name} × rulebook: fails with no added fault`);
      expect(r.stdout).toContain(reason);
      const replay = /replay: faultline (replay .*)$/m.exec(r.stdout)?.[1];
      expect(replay).toBe(`replay ./${name}.ts --config rulebook --seed 1 --trial 0`);
      const again = await run([...replay!.split(' '), '--trial-timeout', timeout]);
      expect(again.code, again.stderr).toBe(1);
      expect(again.stdout).toContain(reason);
    });
  }
});
