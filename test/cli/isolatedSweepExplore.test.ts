import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';
import { agentScenarioJs, EXITS_SEVEN, LOOPS_FOREVER, SPIN_MS } from './misbehavingAgents.js';

/**
 * `sweep --replay`, `sweep` and `explore` of an agent that misbehaves on its worker (the other
 * half of isolatedReproducers.test.ts, a file of its own so that neither runs long): it gets the
 * verdict `run` gives it, a search goes on past it and prints a replay that works, and a stop
 * signal ends a command whose worker never finishes loading. The CLI's entry in this process
 * (./inProcess.ts): the agents misbehave on the CLI's workers, as under the binary.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('isolated-searches');
  // Plain JavaScript: each hung or crashed trial's fresh worker loads the file again, and a .ts file would cost
  // tsx's loaders and esbuild in every one; the language of the agent's file is not what these cases are about.
  await writeFile(join(dir.path, 'exits.mjs'), agentScenarioJs('exits', EXITS_SEVEN));
  await writeFile(join(dir.path, 'loops.mjs'), agentScenarioJs('loops', LOOPS_FOREVER));
  // Loads in the CLI, spins as it loads on a worker: the worker never says it is ready.
  await writeFile(
    join(dir.path, 'spins-at-load.mjs'),
    `import { isMainThread } from 'node:worker_threads';\nif (!isMainThread) for (;;) { /* spin */ }\n${agentScenarioJs('spins-at-load', '')}`,
  );
});
afterAll(() => dir.cleanup());

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

describe('faultline sweep --replay and explore of a misbehaving agent', () => {
  it('sweep --replay: exit 1 with the verdict', async () => {
    const r = await run([
      'sweep',
      './exits.mjs',
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
      './loops.mjs',
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
    ['explore', ['explore', './spins-at-load.mjs', '--runs', '1', '--trial-timeout', '1500'], 'explore: '],
    [
      'run --workers 2',
      ['run', './spins-at-load.mjs', '--workers', '2', '--k', '4', '--reporter', 'console'],
      'seed 1, k = 4',
    ],
    [
      'sweep',
      ['sweep', './spins-at-load.mjs', '--workers', '2', '--k', '2', '--lambda', '0', '--reporter', 'console'],
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
      // One plan (three, then two, before): the claim is the scenario's own trial and its replay; the plan's trial, on the
      // fresh worker that replaced the crashed or hung one, crashes or hangs too, and costs one more worker per plan.
      // The agent that exits does so well within 1500 ms; the one that spins is hung whatever the watchdog (SPIN_MS).
      const timeout = name === 'loops' ? SPIN_MS : '1500';
      const r = await run(['explore', `./${name}.mjs`, '--runs', '1', '--trial-timeout', timeout]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toContain(`${name} × rulebook: fails with no added fault`);
      expect(r.stdout).toContain(reason);
      const replay = /replay: faultline (replay .*)$/m.exec(r.stdout)?.[1];
      expect(replay).toBe(`replay ./${name}.mjs --config rulebook --seed 1 --trial 0`);
      const again = await run([...replay!.split(' '), '--trial-timeout', timeout]);
      expect(again.code, again.stderr).toBe(1);
      expect(again.stdout).toContain(reason);
    });
  }
});
