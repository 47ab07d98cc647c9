import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonReport } from '../../src/report/json.js';
import { SweepJsonSchema, type SweepJson } from '../../src/report/sweep/sweepJson.js';
import { faultline, start, tempDir, type Finished } from './faultline.js';
import { inProcess } from './inProcess.js';

/**
 * `faultline sweep` through the real binary, on the built-in library: pass^1 and pass^k of
 * `naive` and `rulebook` as rate limits and 503s hit more of the tool calls.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
let first: Finished;
let sweep: SweepJson;
/** The two configurations the sweep and its λ = 0 run compare, at k = 4. */
const BOTH_K4 = ['--config', 'naive', '--config', 'rulebook', '--k', '4'];
// k = 4 over the whole library, two configurations, two series, six λ: 1,440 trials, a few seconds.
const SWEEP = [
  'sweep',
  '--fault',
  'rate_limit',
  '--fault',
  'unavailable',
  '--lambda',
  '0:0.5:0.1',
  ...BOTH_K4,
  '--seed',
  '1',
];

/** Three scenarios, two configurations, two λ, k = 3: 36 trials. */
const SMALL = [
  'sweep',
  'email-rate-limit-seconds',
  'read-timeout-retry',
  'deploy-poll-to-completion',
  '--config',
  'naive',
  '--config',
  'rulebook',
  '--lambda',
  '0,0.4',
  '--k',
  '3',
  '--reporter',
  'json',
];

const read = (...parts: string[]): Promise<string> => readFile(join(dir.path, ...parts), 'utf8');
const curve = (series: string, config: string): SweepJson['sweep']['byConfig'][number] => {
  const found = sweep.sweep.byConfig.find((c) => c.series === series && c.config === config);
  if (!found) throw new Error(`no curve ${series} × ${config}`);
  return found;
};
const pass1 = (series: string, config: string): number[] => curve(series, config).points.map((p) => p.pass1 ?? NaN);

beforeAll(async () => {
  dir = await tempDir('sweep');
  first = await faultline([...SWEEP, '--workers', '0', '--out', 'a'], { cwd: dir.path });
  sweep = SweepJsonSchema.parse(JSON.parse(await read('a', 'sweep.json')));
});
afterAll(() => dir.cleanup());

// The variations run in process, through the entry the binary calls; the first sweep (above) and the
// SIGINT case (the process's own signal) run the binary.
const cli = (args: readonly string[]): Promise<Finished> => inProcess(args, { cwd: dir.path });

describe('faultline sweep on the library', () => {
  it('counts every rule of every cell at every point: the swept faults fired somewhere at each λ > 0, never at λ = 0', () => {
    expect(sweep.schemaVersion).toBe(3);
    expect(sweep.sweep.columns).toBe('configuration');
    expect(sweep.sweep.notExercised).toEqual([]);
    for (const s of sweep.sweep.series) {
      for (const p of s.points) {
        expect(p.cells).toHaveLength(19 * 2);
        // The sweep's rule is the last of every cell's plan; it may miss a cell, not a whole point.
        const swept = p.cells.map((c) => c.coverage.at(-1)!);
        expect(swept.every((r) => r.mustFire === false)).toBe(true);
        if (p.lambda === 0) expect(swept.every((r) => r.trials === 0 && r.firings === 0)).toBe(true);
        else expect(swept.some((r) => r.trials > 0)).toBe(true);
        for (const c of p.cells) for (const r of c.coverage) expect(r.trials).toBeLessThanOrEqual(c.trials);
      }
    }
    expect(first.stdout).toMatch(
      /^rate_limit: fault coverage \(trials each rule fired in \/ trials, and its firings\)$/m,
    );
  });

  it('runs every point, writes its reports, and exits 0', () => {
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('reports: a/sweep.json, a/sweep.md, a/sweep.html');
    expect(sweep.sweep.lambdas).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(sweep.sweep.series.map((s) => s.label)).toEqual(['rate_limit', 'unavailable']);
    expect(sweep.sweep.trials).toBe(19 * 2 * 4 * 6 * 2);
    expect(sweep.sweep.byConfig).toHaveLength(4);
    expect(sweep.sweep.byScenario).toHaveLength(2 * 2 * 19);
    // One progress line per point, and the rate on the last.
    expect(first.stderr.match(/^faultline sweep: (rate_limit|unavailable) λ=/gm)).toHaveLength(12);
    expect(first.stderr).toMatch(
      new RegExp(`faultline sweep: ${19 * 2 * 4 * 6 * 2} trials in [\\d.]+ s \\(\\d+ trials\\/s\\)`),
    );
  });

  it("naive's pass^1 falls as λ rises: lower at 0.5 than at 0, and at no λ above its λ = 0 figure, under both faults", () => {
    for (const series of ['rate_limit', 'unavailable']) {
      const naive = pass1(series, 'naive');
      expect(naive[5], `${series}: ${naive.join(', ')}`).toBeLessThan(naive[0]!);
      for (const x of naive.slice(1)) expect(x, `${series}: ${naive.join(', ')}`).toBeLessThanOrEqual(naive[0]!);
      // A least-squares line through the points slopes down.
      const xs = sweep.sweep.lambdas;
      const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
      const my = naive.reduce((a, b) => a + b, 0) / naive.length;
      const slope =
        xs.reduce((a, x, i) => a + (x - mx) * (naive[i]! - my), 0) / xs.reduce((a, x) => a + (x - mx) ** 2, 0);
      expect(slope).toBeLessThan(0);
      // pass^k is never above pass^1, and the rulebook configuration stays above naive at every λ.
      curve(series, 'naive').points.forEach((p) => expect(p.passK!).toBeLessThanOrEqual(p.pass1!));
      const rulebook = pass1(series, 'rulebook');
      rulebook.forEach((r, i) => expect(r).toBeGreaterThan(naive[i]!));
    }
  });

  it('adds nothing at λ = 0: that point is the plain run with its seed', async () => {
    const point = sweep.sweep.series[0]!.points[0]!;
    expect(point.lambda).toBe(0);
    const run = await cli([
      'run',
      ...BOTH_K4,
      '--seed',
      String(point.seed),
      '--reporter',
      'json',
      '--out',
      'plain',
      '--workers',
      '0',
    ]);
    expect(run.code, run.stderr).toBe(1);
    const report = parseJsonReport(await read('plain', 'faultline.json'));
    for (const config of ['naive', 'rulebook']) {
      const m = report.configs.find((c) => c.config === config)!;
      const p = curve('rate_limit', config).points[0]!;
      expect({ trials: p.trials, successes: p.successes, pass1: p.pass1, passK: p.passK }).toEqual({
        trials: m.trials,
        successes: m.successes,
        pass1: m.passHat[0],
        passK: m.passHat[3],
      });
    }
  });

  it('gives each point a seed of its own, and the same seed the same bytes', async () => {
    const seeds = sweep.sweep.series.flatMap((s) => s.points.map((p) => p.seed));
    expect(new Set(seeds).size).toBe(12);
    // No --workers: the library runs no code of the user's, so the default runs it in process too.
    const again = await cli([...SWEEP, '--out', 'b']);
    expect(again.code, again.stderr).toBe(0);
    expect(await read('b', 'sweep.json')).toBe(await read('a', 'sweep.json'));
    expect(await read('b', 'sweep.md')).toBe(await read('a', 'sweep.md'));
    expect(again.stdout).toBe(first.stdout.replaceAll('a/sweep', 'b/sweep'));
    // Another seed, other trials: the figures move. Shown on a smaller sweep run under both seeds, not a
    // third run of the 1,440 trials above.
    const [one, other] = await Promise.all(
      ['1', '2'].map((seed) => cli([...SMALL, '--seed', seed, '--workers', '0', '--out', `seed-${seed}`])),
    );
    expect([one!.code, other!.code], other!.stderr).toEqual([0, 0]);
    expect(await read('seed-2', 'sweep.json')).not.toBe(await read('seed-1', 'sweep.json'));
  });

  it('writes the same bytes from worker threads as in process', async () => {
    // A smaller sweep: every point starts a pool of its own, and a worker's start costs about a second of CPU.
    const here = await cli([...SMALL, '--workers', '0', '--out', 'w0']);
    const pooled = await cli([...SMALL, '--workers', '2', '--out', 'w2']);
    expect([here.code, pooled.code], pooled.stderr).toEqual([0, 0]);
    const text = await read('w0', 'sweep.json');
    expect(SweepJsonSchema.parse(JSON.parse(text)).sweep.trials).toBe(3 * 2 * 3 * 2 * 2);
    expect(await read('w2', 'sweep.json')).toBe(text);
  });

  it('prints a table per series, pass^1 and pass^k with their intervals, and a replay command for every failing point', () => {
    expect(first.stdout).toMatch(
      /^rate_limit: pass\^1 and pass\^4 with 95% intervals by configuration, over 19 scenarios$/m,
    );
    expect(first.stdout).toMatch(/^ {2}configuration +rate +λ=0 +λ=0\.1 +λ=0\.2 +λ=0\.3 +λ=0\.4 +λ=0\.5$/m);
    const points = curve('rate_limit', 'naive').points;
    const cell = (x: number | null, i: readonly [number, number] | null): string =>
      `${x!.toFixed(3)} [${i![0].toFixed(2)}, ${i![1].toFixed(2)}]`;
    expect(first.stdout).toContain(
      `  naive          pass^1  ${points.map((p) => cell(p.pass1, p.pass1Interval)).join('  ')}`,
    );
    expect(first.stdout).toContain(
      `                 pass^4  ${points.map((p) => cell(p.passK, p.passKInterval)).join('  ')}`,
    );
    // Every interval holds its point, and pass^k's lies at or below pass^1's.
    for (const c of sweep.sweep.byConfig) {
      for (const p of c.points) {
        expect(p.pass1Interval![0]).toBeLessThanOrEqual(p.pass1!);
        expect(p.pass1Interval![1]).toBeGreaterThanOrEqual(p.pass1!);
        expect(p.passKInterval![0]).toBeLessThanOrEqual(p.passK!);
        expect(p.passKInterval![1]).toBeGreaterThanOrEqual(p.passK!);
        expect(p.passKInterval![1]).toBeLessThanOrEqual(p.pass1Interval![1] + 1e-9);
      }
    }
    expect(sweep.sweep).toMatchObject({ confidence: 0.95, intervalMethod: 'clopper-pearson' });
    expect(first.stdout).toContain('[lower, upper]: 95% confidence interval');
    const failing = sweep.sweep.byConfig.flatMap((c) => c.points.filter((p) => p.successes < p.trials));
    expect(failing.length).toBeGreaterThan(12);
    for (const p of failing) expect(first.stdout).toContain(`    ${p.replay}`);
  });

  it('writes the same tables as Markdown', async () => {
    const points = curve('rate_limit', 'naive').points;
    const md = await read('a', 'sweep.md');
    expect(md).toMatch(/^## faultline sweep: pass\^k against fault intensity λ$/m);
    expect(md).toContain(
      `| naive | pass^1 | ${points.map((p) => `${p.pass1!.toFixed(3)} \\[${p.pass1Interval![0].toFixed(2)}, ${p.pass1Interval![1].toFixed(2)}\\]`).join(' | ')} |`,
    );
    expect(md).toContain('### rate\\_limit: pass^1 / pass^4 by scenario');
  });

  it("a failing point's replay command reruns the trial the sweep ran, fault for fault, and exits 1", async () => {
    const p = curve('unavailable', 'rulebook').points.find((x) => x.replay !== null && x.lambda > 0)!;
    const args = p.replay!.split(' ').slice(1);
    expect(args.slice(0, 1)).toEqual(['sweep']);
    expect(args).toEqual(
      expect.arrayContaining(['--fault', 'unavailable', '--lambda', String(p.lambda), '--seed', '1', '--replay']),
    );
    // Scenario and configuration names are slugs: the command splits on spaces as a shell would.
    const replay = await cli(args);
    expect(replay.code, replay.stderr).toBe(1);
    expect(replay.stdout).toMatch(
      new RegExp(
        `^faultline sweep --replay {2}\\S+ × rulebook, unavailable at λ=${p.lambda}, seed 1 \\(point seed \\d+\\), trial \\d+: failed`,
      ),
    );
    // The sweep's own rule is the one after the scenario's: its 503s are in the timeline.
    expect(replay.stdout).toMatch(/fault unavailable\(status=503\) on req-\d+ \(rule \d+\)/);
    const json = await cli([...args, '--json']);
    const again = await cli([...args, '--json']);
    expect(json.stdout).toBe(again.stdout);
    expect(JSON.parse(json.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'fault' })]));
  });
});

describe('faultline sweep --mix', () => {
  it('runs one series of every fault sharing λ, and its replay command names them all', async () => {
    const r = await cli([
      'sweep',
      'deploy-poll-to-completion',
      'email-rate-limit-seconds',
      '--config',
      'rulebook',
      '--fault',
      'rate_limit',
      '--fault',
      '{kind: unavailable, status: 502}',
      '--mix',
      '--status-queries',
      '--lambda',
      '0.6',
      '--k',
      '4',
      '--reporter',
      'json',
      '--out',
      'mix',
      '--workers',
      '0',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const mix = SweepJsonSchema.parse(JSON.parse(await read('mix', 'sweep.json'))).sweep;
    expect(mix.target).toBe('any');
    expect(mix.series).toEqual([
      {
        label: 'mix(rate_limit+unavailable(status=502))',
        mix: true,
        faults: [{ kind: 'rate_limit' }, { kind: 'unavailable', status: 502 }],
        points: [{ lambda: 0.6, seed: expect.any(Number), cells: expect.any(Array) }],
      },
    ]);
    // The mix's two rules follow each scenario's own, each counted on its own, with a label that says what it matches.
    for (const cell of mix.series[0]!.points[0]!.cells)
      expect(cell.coverage.slice(-2).map((r) => r.label)).toEqual([
        'any tool calls and status queries p=0.3, rate_limit',
        expect.stringMatching(/^any tool calls and status queries p=0\.428\d+, unavailable$/),
      ]);
    const point = mix.byConfig[0]!.points[0]!;
    expect(point.successes).toBeLessThan(point.trials);
    expect(point.replay).toMatch(
      /^faultline sweep \S+ --config rulebook --fault rate_limit --fault '\{"kind":"unavailable","status":502\}' --mix --status-queries --lambda 0\.6 --seed 1 --replay \d+$/,
    );
    // Undo the shell quoting of the inline fault, as a shell would.
    const args = point
      .replay!.replace(/'([^']*)'/, (_, inner: string) => inner.replaceAll(' ', '\u0000'))
      .split(' ')
      .slice(1)
      .map((a) => a.replaceAll('\u0000', ' '));
    const replay = await cli([...args, '--json']);
    expect(replay.code, replay.stderr).toBe(1);
    // The scenario's own rules come first; the mix's two rules follow them, in --fault order.
    const own = point.replay!.startsWith('faultline sweep email-rate-limit-seconds') ? 1 : 0;
    const faults = (
      JSON.parse(replay.stdout) as { type: string; rule?: number; fault?: { kind: string; status?: number } }[]
    ).filter((e) => e.type === 'fault' && e.rule! >= own);
    expect(faults.length).toBeGreaterThan(0);
    for (const f of faults)
      expect(f.fault).toEqual(f.rule === own ? { kind: 'rate_limit' } : { kind: 'unavailable', status: 502 });
  });
});

describe("faultline sweep of the user's own agent", () => {
  // The agent says where it ran: a sweep of user code must isolate it on workers by default, as run does.
  const scenario = `
import { isMainThread } from 'node:worker_threads';
type Tools = Record<string, (input: unknown) => Promise<{ kind: string }>>;
export default {
  name: 'own-agent-where',
  agent: {
    kind: 'function',
    task: 'create an order, on a worker thread',
    fn: async ({ tools }: { tools: Tools }) => {
      const r = await tools['create_order']!({ clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 });
      return { outcome: !isMainThread && r.kind === 'ok' ? 'completed' : 'failed' };
    },
  },
  goal: { outcome: ['completed'] },
};
`;
  const args = [
    'sweep',
    'own-agent.ts',
    '--config',
    'rulebook',
    '--fault',
    'unavailable',
    '--lambda',
    '0,1',
    '--k',
    '2',
    '--reporter',
    'json',
  ];
  const figures = async (out: string): Promise<(number | null)[]> =>
    SweepJsonSchema.parse(JSON.parse(await read(out, 'sweep.json'))).sweep.byConfig[0]!.points.map((p) => p.pass1);

  it("runs it on workers by default, with the sweep's faults added to its scenario there", async () => {
    await writeFile(join(dir.path, 'own-agent.ts'), scenario);
    const r = await cli([...args, '--out', 'own']);
    expect(r.code, r.stderr).toBe(0);
    // λ = 0: it ran on a worker and passed; λ = 1: every create_order got a 503 (three attempts), so it failed.
    expect(await figures('own')).toEqual([1, 0]);
    const here = await cli([...args, '--workers', '0', '--out', 'own-here']);
    expect(here.code, here.stderr).toBe(0);
    expect(await figures('own-here')).toEqual([0, 0]);
  });
});

describe('faultline sweep --gate', () => {
  // The rulebook configuration over the library: every cell passes up to λ = 0.1 and some fail from 0.2 (seed 1, k 4).
  const GATED = [
    'sweep',
    '--config',
    'rulebook',
    '--lambda',
    '0:0.3:0.1',
    '--k',
    '4',
    '--gate',
    'pass^k>=1',
    '--reporter',
    'console',
    '--reporter',
    'json',
    '--workers',
    '0',
  ];

  it('exits 0 when every gate holds at every point up to --gate-up-to', async () => {
    const r = await cli([...GATED, '--gate-up-to', '0.1', '--out', 'gate-held']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('✓ pass^k>=1 held at every λ ≤ 0.1 (4 points)');
    const gates = SweepJsonSchema.parse(JSON.parse(await read('gate-held', 'sweep.json'))).gates;
    // Coverage is judged beside the gate named, as `faultline run` judges it.
    expect(gates).toMatchObject({ gates: ['pass^k>=1', 'unexercised==0'], upTo: 0.1, passed: true });
    expect(r.stdout).toContain('✓ unexercised==0 held at every λ ≤ 0.1 (4 points)');
    expect(gates.points.map((p) => `${p.series} ${p.lambda}`)).toEqual([
      'rate_limit 0',
      'rate_limit 0.1',
      'unavailable 0',
      'unavailable 0.1',
    ]);
  });

  it('exits 1 naming each point where a gate failed, and the cells', async () => {
    const r = await cli([...GATED, '--out', 'gate-failed']);
    expect(r.code, r.stderr).toBe(1);
    const json = SweepJsonSchema.parse(JSON.parse(await read('gate-failed', 'sweep.json')));
    expect(json.gates.passed).toBe(false);
    const failed = json.gates.points.filter((p) => !p.passed);
    expect(failed.length).toBeGreaterThan(0);
    for (const p of failed) {
      expect(p.lambda).toBeGreaterThan(0.1);
      // The gate failed exactly where some scenario had a failing trial.
      const curve = json.sweep.byConfig.find((c) => c.series === p.series)!.points.find((x) => x.lambda === p.lambda)!;
      expect(curve.failingScenarios.length).toBeGreaterThan(0);
      expect(r.stdout).toContain(`${p.series} λ=${p.lambda}: ${p.results[0]!.message}`);
    }
    // pass^k>=1 failed; coverage, judged beside it, held.
    expect(r.stdout).toMatch(/^gates: 1 of 2 gates failed$/m);
    expect(r.stdout).toMatch(/^ {2}✓ unexercised==0 held at every λ \(8 points\)$/m);
  });

  it('refuses a gate that can never hold, or --gate-up-to alone, before the first trial', async () => {
    const never = await cli(['sweep', '--k', '2', '--gate', 'pass^4>=1', '--out', 'never']);
    expect(never.code).toBe(2);
    expect(never.stderr).toMatch(
      /^error: --gate pass\^4>=1 can never hold: pass\^4 needs at least 4 trials per cell, and this run has --k 2/m,
    );
    const alone = await cli(['sweep', '--gate-up-to', '0.2', '--out', 'never']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(
      /^error: --gate-up-to bounds the λ the gates are judged at: give at least one --gate/m,
    );
    const bad = await cli(['sweep', '--gate', 'pass^k>=1', '--gate-up-to', '0,0.2', '--out', 'never']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /option '--gate-up-to <λ>' argument '0,0\.2' is invalid\. expected one λ, a probability such as 0\.2/,
    );
  });
});

describe('faultline sweep stopped by a signal', () => {
  it('SIGINT after the first point: the finished points are reported, marked interrupted, exit 130', async () => {
    const run = start(
      [
        'sweep',
        '--config',
        'rulebook',
        '--k',
        '40',
        '--lambda',
        '0:1:0.1',
        '--fault',
        'timeout',
        '--out',
        'stopped',
        '--workers',
        '0',
      ],
      { cwd: dir.path },
    );
    await run.stderrLine(/^faultline sweep: timeout λ=0: /);
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/faultline: interrupted; the reports cover the \d+ trials that finished/);
    const stopped = SweepJsonSchema.parse(JSON.parse(await read('stopped', 'sweep.json'))).sweep;
    expect(stopped.interrupted).toBe(true);
    const points = stopped.series[0]!.points;
    expect(points.length).toBeGreaterThanOrEqual(1);
    expect(points.length).toBeLessThan(11);
    expect(stopped.trials).toBeLessThan(19 * 40 * 11);
    expect(r.stdout).toMatch(/interrupted: partial figures/);
  });
});

describe('faultline sweep: bad input exits 2 naming the flag and what it expected', () => {
  const cases: readonly { readonly args: readonly string[]; readonly message: RegExp }[] = [
    {
      args: ['--lambda', '0,1.5'],
      message:
        /option '--lambda <list\|from:to:step>' argument '0,1\.5' is invalid\. expected a list of probabilities such as 0,0\.1,0\.2 or a range from:to:step such as 0:0\.5:0\.1; 1\.5 is above 1/,
    },
    {
      args: ['--lambda', '0.5:0:0.1'],
      message:
        /'--lambda <list\|from:to:step>' argument '0\.5:0:0\.1' is invalid\. .*the range ends \(0\) before it starts \(0\.5\)/,
    },
    { args: ['--lambda', '0.1', '--lambda', '0.1'], message: /λ = 0\.1 is given twice/ },
    {
      args: ['--fault', 'rate-limit'],
      message:
        /^error: --fault rate-limit: expected a fault kind \(one of: timeout, latency, network, rate_limit, .*\) or a fault inline such as/m,
    },
    {
      args: ['--fault', '{kind: unavailable, status: 418}'],
      message: /^error: --fault \{kind: unavailable, status: 418\}: the inline fault is not a fault: status/m,
    },
    { args: ['--fault', 'rate_limit', '--fault', 'rate_limit'], message: /^error: --fault rate_limit is given twice/m },
    {
      args: ['--reporter', 'junit'],
      message: /unknown sweep reporter "junit" \(one of: console, json, markdown, html\)/,
    },
    {
      args: ['--replay', '0'],
      message:
        /^error: --replay reruns one trial: name one series \(one --fault, or several with --mix\), not 2: rate_limit, unavailable/m,
    },
    {
      args: ['read-timeout-retry', '--fault', 'timeout', '--replay', '0'],
      message: /^error: --replay reruns one trial: name one λ \(--lambda 0\.3\), not 6/m,
    },
    { args: ['--grep', 'nothing-matches-this'], message: /^error: --grep nothing-matches-this matches no scenario/m },
    { args: ['no-such-scenario'], message: /no scenario file or built-in scenario named "no-such-scenario"/ },
  ];
  for (const c of cases) {
    it(`sweep ${c.args.join(' ')}`, async () => {
      const r = await cli(['sweep', ...c.args, '--out', 'never']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(c.message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  }

  it('--help shows the flags and examples', async () => {
    const r = await cli(['sweep', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--lambda <list|from:to:step>');
    expect(r.stdout).toContain(
      '$ faultline sweep --config naive --config rulebook --fault rate_limit --lambda 0:0.5:0.1 --k 8',
    );
    const top = await cli(['--help']);
    expect(top.stdout).toMatch(/^ {2}sweep \[options\] \[scenarios\.\.\.\]/m);
  });
});
