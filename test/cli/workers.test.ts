import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonReport, type JsonReport } from '../../src/report/json.js';
import { faultline, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';
import { agentScenarioJs } from './misbehavingAgents.js';

/**
 * Trials on worker threads: agents that take their worker down get a verdict and the run goes
 * on; the worker count and sharding never change a report. The first case runs the real binary;
 * the others run the CLI's entry in this process (./inProcess.ts): the agents' code runs on the
 * CLI's workers either way, and the built-in scenarios of `--workers 0` harm no process. The
 * agents' files are JavaScript (`.mjs`): what a worker does with a bad agent is the claim, not the
 * language, and a fresh worker for each bad trial would load tsx again for a `.ts` file.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('workers');
});
afterAll(() => dir.cleanup());

const BAD: Record<string, { code: string; end: 'crashed' | 'hung'; reason: RegExp }> = {
  'exits-zero': { code: 'process.exit(0);', end: 'crashed', reason: /the agent called process\.exit\(0\)/ },
  'exits-one': { code: 'process.exit(1);', end: 'crashed', reason: /the agent called process\.exit\(1\)/ },
  'unhandled-rejection': {
    code: "void Promise.reject(new Error('nobody handles this'));",
    end: 'crashed',
    reason: /unhandled promise rejection: Error: nobody handles this/,
  },
  // Whether the timer fires before the trial ends or is still pending after it, the trial is to blame.
  'throws-in-timer': {
    code: "setTimeout(() => { throw new Error('thrown from a timer'); }, 0);",
    end: 'crashed',
    reason: /thrown from a timer|left a timer running/,
  },
  // Blocked for ever without spinning: the watchdog ends it as it ends a loop (the spinning agent's
  // own case is below), and a hung trial runs twice (the second time streaming its history), so a
  // spin here kept both cores busy for 4 × 3 s of this file's CPU.
  'blocks-forever': {
    code: 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);',
    end: 'hung',
    reason: /no answer within the 3000 ms wall-clock watchdog/,
  },
  'leaves-interval': {
    code: 'setInterval(() => undefined, 1_000);',
    end: 'crashed',
    reason: /left a timer running after its trial ended/,
  },
};

// On its own run, with a watchdog that only catches a hang: near its heap limit a worker spends
// most of its time in the collector, and at load 30 that took longer than the 3,000 ms the
// spinning agents above are given, so the trial was judged hung instead of out of memory.
const HEAP = {
  code: 'const hoard = []; for (;;) hoard.push(new Array(100_000).fill(7));',
  reason: /out of memory: the agent's code allocated past the worker's heap limit of 64 MB \(--worker-heap\)/,
};

const run = (args: readonly string[]) => inProcess(args, { cwd: dir.path });
const read = (...parts: string[]): Promise<string> => readFile(join(dir.path, ...parts), 'utf8');
const report = async (out: string): Promise<JsonReport> =>
  parseJsonReport(await read(out, 'faultline.json'), `${out}/faultline.json`);
const withoutWallClock = ({ wallClock: _wallClock, ...rest }: JsonReport): Omit<JsonReport, 'wallClock'> => rest;

describe('agents that take their worker down', () => {
  it('each bad trial gets its verdict and reason, the good scenario passes, every report is written, and the CLI exits 1', async () => {
    await writeFile(join(dir.path, 'good-agent.mjs'), agentScenarioJs('good-agent', ''));
    for (const [name, bad] of Object.entries(BAD))
      await writeFile(join(dir.path, `${name}.mjs`), agentScenarioJs(name, bad.code));
    const files = ['good-agent.mjs', ...Object.keys(BAD).map((n) => `${n}.mjs`)];
    const r = await faultline(
      ['run', ...files, '--k', '2', '--workers', '2', '--trial-timeout', '3000', '--worker-heap', '64', '--out', 'bad'],
      { cwd: dir.path },
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('reports: bad/faultline.json, bad/junit.xml, bad/summary.md');

    const json = await report('bad');
    expect(json.run.trials).toBe(2 * files.length);
    const cell = (name: string) => json.cells.find((c) => c.scenario === name)!;
    expect(cell('good-agent').status).toBe('passed');
    expect(cell('good-agent').metrics.successes).toBe(2);
    for (const [name, bad] of Object.entries(BAD)) {
      const c = cell(name);
      expect(c.metrics.successes, name).toBe(0);
      expect(c.metrics.ends, name).toEqual({ [bad.end]: 2 });
      expect(
        c.trials.map((t) => t.index),
        name,
      ).toEqual([0, 1]);
      for (const t of c.trials) {
        expect(t.end.kind, name).toBe(bad.end);
        expect('message' in t.end ? t.end.message : '', name).toMatch(bad.reason);
        expect(t.failed, name).toContain('goal-state');
        // What the agent did before its worker went is the evidence, not a fresh world (the heap's end leaves nothing to send).
        if (bad.end === 'crashed') {
          expect(
            t.history?.some((e) => e.type === 'effect' && e.effect === 'order.created'),
            name,
          ).toBe(true);
          expect(JSON.stringify(t.checks), name).not.toContain('happened 0 times');
        }
      }
    }
    const junit = await read('bad', 'junit.xml');
    // A passing case: its figures as properties, and no failure.
    expect(junit).toMatch(
      /<testcase classname="rulebook" name="good-agent">\s*<properties>(\s*<property [^>]*\/>)+\s*<\/properties>\s*<\/testcase>/,
    );
    expect(junit).toContain('the agent called process.exit(0)');
    expect(await read('bad', 'summary.md')).toContain('blocks-forever × rulebook: 2 of 2 trials failed');
    // Each bad trial costs a fresh worker (the scenario files again) and the hung ones the whole watchdog.
  });

  it('an agent that allocates forever: each trial ends out of memory on a worker of its own, and the run goes on', async () => {
    await writeFile(join(dir.path, 'allocates-forever.mjs'), agentScenarioJs('allocates-forever', HEAP.code));
    const r = await run([
      'run',
      'allocates-forever.mjs',
      '--k',
      '2',
      '--workers',
      '2',
      '--trial-timeout',
      '600000',
      '--worker-heap',
      '64',
      '--out',
      'heap',
    ]);
    expect(r.code, r.stderr).toBe(1);
    const [c] = (await report('heap')).cells;
    expect(c!.metrics.successes).toBe(0);
    expect(c!.metrics.ends).toEqual({ crashed: 2 });
    expect(c!.trials.map((t) => t.index)).toEqual([0, 1]);
    for (const t of c!.trials) {
      expect(t.end.kind).toBe('crashed');
      expect('message' in t.end ? t.end.message : '').toMatch(HEAP.reason);
      expect(t.failed).toContain('goal-state');
    }
  });

  it('a trial the watchdog ends keeps what its agent did before it spun: the order it created is in the history and the evidence', async () => {
    await writeFile(
      join(dir.path, 'spins-after-order.mjs'),
      agentScenarioJs('spins-after-order', 'for (;;) { /* spin */ }'),
    );
    const r = await run(['run', 'spins-after-order.mjs', '--k', '1', '--trial-timeout', '1500', '--out', 'spins']);
    expect(r.code, r.stderr).toBe(1);
    const [t] = (await report('spins')).cells[0]!.trials;
    expect(t!.end).toMatchObject({
      kind: 'hung',
      message: expect.stringMatching(/no answer within the 1500 ms wall-clock watchdog/) as unknown,
    });
    expect(t!.history?.some((e) => e.type === 'effect' && e.effect === 'order.created')).toBe(true);
    expect(JSON.stringify(t!.checks)).not.toContain('happened 0 times');
    expect(r.stdout).toContain('replay: faultline replay ./spins-after-order.mjs --config rulebook --seed 1 --trial 0');
  });

  it("keeps one agent's changes to globals (Date, Object.prototype) from the next trial and from the report", async () => {
    await writeFile(
      join(dir.path, 'a-replaces-date.mjs'),
      agentScenarioJs('replaces-date', 'globalThis.Date = class { static now() { return 0; } };'),
    );
    await writeFile(
      join(dir.path, 'b-pollutes-prototype.mjs'),
      agentScenarioJs('pollutes-prototype', "Object.prototype['polluted'] = true;"),
    );
    // Runs after both on the same (single) worker: it fails if either change reached it.
    await writeFile(
      join(dir.path, 'c-sees-clean-globals.mjs'),
      agentScenarioJs(
        'sees-clean-globals',
        "if ('polluted' in {} || typeof Date.parse !== 'function') return { outcome: 'failed', claims: [{ subject: 'orders:ref-1', status: 'succeeded' }] };",
      ),
    );
    const r = await run([
      'run',
      'a-replaces-date.mjs',
      'b-pollutes-prototype.mjs',
      'c-sees-clean-globals.mjs',
      '--k',
      '2',
      '--workers',
      '1',
      '--out',
      'globals',
    ]);
    expect(r.code, r.stdout).toBe(0);
    const json = await report('globals');
    expect(json.cells.map((c) => [c.scenario, c.metrics.successes])).toEqual([
      ['replaces-date', 2],
      ['pollutes-prototype', 2],
      ['sees-clean-globals', 2],
    ]);
    // The wall clock is the CLI's own, whatever an agent did to its worker's Date.
    expect(Math.abs(Date.parse(json.wallClock.startedAt) - Date.now())).toBeLessThan(3_600_000);
  });
});

const MATRIX = [
  'run',
  'order-partial-write-no-idempotency',
  'payment-quota-exceeded',
  'read-timeout-retry',
  'email-rate-limit-seconds',
  '--config',
  'naive',
  '--config',
  'rulebook',
  '--k',
  '5',
  '--seed',
  '11',
  '--keep-failures',
  '2',
];

describe('the same seed gives the same report', () => {
  it('on 0 (in process), 1 and 2 workers: identical JSON apart from wallClock, identical JUnit and Markdown', async () => {
    const runs = await Promise.all(['0', '1', '2'].map((w) => run([...MATRIX, '--workers', w, '--out', `w${w}`])));
    expect(runs.map((r) => r.code)).toEqual([1, 1, 1]);
    const [w0, w1, w2] = await Promise.all(['w0', 'w1', 'w2'].map(report));
    expect(w0!.run.failedTrials).toBeGreaterThan(0);
    // Some cells fail more often than they keep: the elided failures must be the same ones on any worker count.
    expect(w0!.cells.some((c) => c.elided > 0)).toBe(true);
    expect(w0!.cells.flatMap((c) => c.trials).every((t) => t.history !== undefined && t.history.length > 0)).toBe(true);
    expect(withoutWallClock(w1!)).toEqual(withoutWallClock(w0!));
    expect(withoutWallClock(w2!)).toEqual(withoutWallClock(w0!));
    for (const file of ['junit.xml', 'summary.md']) {
      expect(await read('w1', file), file).toBe(await read('w0', file));
      expect(await read('w2', file), file).toBe(await read('w0', file));
    }
  });

  it('sharded then merged: the same JSON apart from wallClock, the same JUnit, Markdown and gates as the unsharded run', async () => {
    const whole = await run([...MATRIX, '--out', 'whole']);
    const shards = await Promise.all(
      [1, 2, 3].map((i) => run([...MATRIX, '--shard', `${i}/3`, '--out', `shard-${i}`])),
    );
    expect(shards.map((s) => s.code)).toEqual([1, 1, 1]);
    const slice = await report('shard-2');
    expect(slice.run.shard).toEqual({ index: 2, count: 3 });
    expect(slice.run.trials).toBeLessThan((await report('whole')).run.trials);

    const merged = await run([
      'merge',
      'shard-3/faultline.json',
      'shard-1/faultline.json',
      'shard-2/faultline.json',
      '--out',
      'merged',
    ]);
    expect(merged.code, merged.stderr).toBe(whole.code);
    expect(withoutWallClock(await report('merged'))).toEqual(withoutWallClock(await report('whole')));
    for (const file of ['junit.xml', 'summary.md'])
      expect(await read('merged', file), file).toBe(await read('whole', file));

    const missing = await run(['merge', 'shard-1/faultline.json', 'shard-3/faultline.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing shard 2/3: merge needs every shard of the run');
    const unsharded = await run(['merge', 'whole/faultline.json']);
    expect(unsharded.code).toBe(2);
    expect(unsharded.stderr).toContain('whole/faultline.json: not a shard report');
  });
});
