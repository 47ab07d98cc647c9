import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, start, tempDir, type Finished } from './faultline.js';
import { inProcess } from './inProcess.js';
import {
  agentScenarioJs,
  EXITS_SEVEN,
  LOOPS_FOREVER,
  REJECTS_UNHANDLED,
  SABOTAGES_DATE,
  SPIN_MS,
  THROWS_IN_TIMER,
} from './misbehavingAgents.js';

/**
 * The commands a failing run prints (`replay`, `sweep --replay`) and `explore` run the agent's
 * code on a worker, as `run` does: an agent that exits, rejects without a handler or spins gets
 * the verdict `run` gives it, with what it did before, and a stop signal ends the command.
 * The first replay and the signals go through the real binary; the other cases run the CLI's
 * entry in this process (./inProcess.ts): the agents misbehave on the CLI's workers either way.
 * `run --workers 0` and `replay` here; `sweep` and `explore` in isolatedSweepExplore.test.ts.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('isolated');
  // Plain JavaScript: the CLI and each fresh worker load the files without tsx and esbuild; the language of the
  // agent's file is not what these cases are about.
  await writeFile(join(dir.path, 'exits.mjs'), agentScenarioJs('exits', EXITS_SEVEN));
  await writeFile(join(dir.path, 'rejects.mjs'), agentScenarioJs('rejects', REJECTS_UNHANDLED));
  await writeFile(join(dir.path, 'loops.mjs'), agentScenarioJs('loops', LOOPS_FOREVER));
  await writeFile(join(dir.path, 'exits-zero.mjs'), agentScenarioJs('exits-zero', 'process.exit(0);'));
  await writeFile(join(dir.path, 'timer.mjs'), agentScenarioJs('timer', THROWS_IN_TIMER));
  await writeFile(join(dir.path, 'date.mjs'), agentScenarioJs('date', SABOTAGES_DATE));
  // Each signal's own endless loop, which first leaves a mark: the signal then comes while it spins. The mark is
  // written synchronously as the tool call returns: an agent that awaits real work the trial does not track (it
  // was `await import('node:fs')`) leaves the trial idle, nothing left to run, and the trial is judged hung at
  // t=0 and ends while the agent goes on to write its mark: the signal then found the replay gone (exit 1, nothing
  // on stderr; seen at load 10, and at load 25 as "the replay ended before its agent spun").
  for (const signal of ['SIGTERM', 'SIGINT'])
    await writeFile(
      join(dir.path, `loops-${signal.toLowerCase()}.mjs`),
      `import { writeFileSync } from 'node:fs';\n${agentScenarioJs(
        `loops-${signal.toLowerCase()}`,
        `writeFileSync(${JSON.stringify(join(dir.path, `spinning-${signal}`))}, '');\n${LOOPS_FOREVER}`,
      )}`,
    );
});
afterAll(() => dir.cleanup());

const binary = (args: readonly string[]) => faultline(args, { cwd: dir.path });
const run = (args: readonly string[]) => inProcess(args, { cwd: dir.path });

describe('faultline run --workers 0: agents in the CLI process', () => {
  it('process.exit(0), an unhandled rejection, a throw in a timer and Date.prototype sabotage each crash their own trial; the run reports and exits 1', async () => {
    // The binary: agent code that calls process.exit runs in the CLI's own process here.
    const r = await binary([
      'run',
      './exits-zero.mjs',
      './rejects.mjs',
      './timer.mjs',
      './date.mjs',
      './exits.mjs',
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
      './loops.mjs',
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
    expect(r.stderr).toContain('replay it on a worker, where a hung trial ends as such: faultline replay ./loops.mjs');
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
    const r = await binary(['replay', './exits.mjs', '--seed', '1', '--trial', '0']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('exits × rulebook, seed 1, trial 0: failed (goal-state)');
    expect(r.stdout).toMatch(/effect order\.created key=ref-1/);
    expect(r.stdout).toContain('goal-state: the agent crashed before finishing: the agent called process.exit(7)');
    expect(r.stdout).not.toContain('happened 0 times');
  });

  it('an unhandled rejection: exit 1 with the crashed verdict, no raw stack', async () => {
    const r = await run(['replay', './rejects.mjs']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain(
      'the agent crashed before finishing: unhandled promise rejection: Error: nobody handles this',
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a synchronous endless loop: hung within the watchdog, with the history up to the loop', async () => {
    // The history up to the loop is the claim: the agent must reach its loop before the watchdog fires. SPIN_MS
    // first; on a machine too loaded for that, the same measurement again under a watchdog three times as long.
    type Event = { type: string; effect?: string; status?: string; message?: string };
    const replay = async (ms: string): Promise<{ r: Finished; history: Event[] }> => {
      const r = await run(['replay', './loops.mjs', '--trial-timeout', ms, '--json']);
      return { r, history: r.code === 1 ? (JSON.parse(r.stdout) as Event[]) : [] };
    };
    const created = (history: readonly Event[]): boolean =>
      history.some((e) => e.type === 'effect' && e.effect === 'order.created');
    let ms: string = SPIN_MS;
    let { r, history } = await replay(ms);
    if (r.code === 1 && !created(history)) ({ r, history } = await replay((ms = '1500')));
    expect(r.code, r.stderr).toBe(1);
    expect(created(history)).toBe(true);
    expect(history.at(-1)).toMatchObject({
      type: 'trial_end',
      status: 'hung',
      message: expect.stringMatching(new RegExp(`no answer within the ${ms} ms wall-clock watchdog`)) as unknown,
    });
  });

  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    it(`a synchronous endless loop under a watchdog that never fires: ${signal} ends it with ${code}`, async () => {
      const started = start(['replay', `./loops-${signal.toLowerCase()}.mjs`, '--trial-timeout', '600000'], {
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
      // The trial's own end, if it had one, is on stdout.
      expect(r.code, `${r.stderr}\n${r.stdout}`).toBe(code);
      expect(r.signal).toBeNull();
    });
  }
});
