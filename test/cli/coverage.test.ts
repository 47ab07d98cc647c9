import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_SCHEMA_VERSION, parseJsonReport } from '../../src/report/json.js';
import { parseXml, xmlElements } from '../../src/report/testing/parseXml.js';
import { SweepJsonSchema } from '../../src/report/sweep/sweepJson.js';
import { faultline, tempDir, type Finished } from './faultline.js';
import { inProcess } from './inProcess.js';

/**
 * Fault coverage end to end: the built-in partial-write scenario with its rule moved to a call
 * that never happens (`call: 7`) passes every trial, and must still fail the run as not
 * exercised, in every reporter; `expect: may-not-fire` opts the rule out. The run with every
 * reporter and the first sweep go through the real binary; the other runs, sweeps, merges and the
 * view run the same entry in this process (./inProcess.ts), which spares each a Node start.
 */

const LIBRARY = new URL('../../scenarios/order-partial-write-idempotent.yaml', import.meta.url);
const RULE = /faults:\n {2}- match: \{ tool: create_order \}\n/;
const MESSAGE =
  'faults[0] (create_order call 7, partial_write, times 1) never fired in 4 trials: the cell is not exercised';

let dir: Awaited<ReturnType<typeof tempDir>>;
let silent: Finished;
let optedOut: Finished;
let invalid: Finished;
let shards: Finished[];
let merged: Finished;
let whole: Finished;
let uncut: Finished;

const read = (...parts: string[]): Promise<string> => readFile(join(dir.path, ...parts), 'utf8');
const cli = (args: readonly string[]): Promise<Finished> => inProcess(args, { cwd: dir.path });

beforeAll(async () => {
  dir = await tempDir('coverage');
  const cwd = dir.path;
  const original = await readFile(LIBRARY, 'utf8');
  expect(original).toMatch(RULE);
  await writeFile(
    join(cwd, 'unreachable.yaml'),
    original.replace(RULE, 'faults:\n  - match: { tool: create_order, call: 7 }\n'),
  );
  await writeFile(
    join(cwd, 'may-not-fire.yaml'),
    original.replace(RULE, 'faults:\n  - match: { tool: create_order, call: 7 }\n    expect: may-not-fire\n'),
  );
  await writeFile(
    join(cwd, 'renamed.yaml'),
    original
      .replace(RULE, 'faults:\n  - match: { tool: create_order, call: 7 }\n')
      .replace('name: order-partial-write-idempotent', 'name: never-fires'),
  );
  const truncated = await readFile(
    new URL('../../scenarios/email-truncated-list-reminders.yaml', import.meta.url),
    'utf8',
  );
  expect(truncated).toContain('fault: { kind: truncated, keep: 2 }');
  await writeFile(
    join(cwd, 'uncut.yaml'),
    truncated.replace('fault: { kind: truncated, keep: 2 }', 'fault: { kind: truncated, keep: 1000000 }'),
  );
  await writeFile(
    join(cwd, 'invalid.yaml'),
    original.replace(RULE, 'faults:\n  - match: { tool: create_order }\n    expect: sometimes\n'),
  );
  const all = [
    '--reporter',
    'console',
    '--reporter',
    'json',
    '--reporter',
    'junit',
    '--reporter',
    'markdown',
    '--reporter',
    'html',
  ];
  // One worker each; the naive config's runs read as a person would (console) and as CI would (json).
  const naive = (scenario: string, out: string): Promise<Finished> =>
    cli([
      'run',
      scenario,
      '--config',
      'naive',
      '--workers',
      '0',
      '--out',
      out,
      '--reporter',
      'console',
      '--reporter',
      'json',
    ]);
  // The library scenario and a renamed copy, in shards and whole: the merge must equal the whole.
  const renamed = (out: string, ...shard: string[]): Promise<Finished> =>
    cli([
      'run',
      'order-partial-write-idempotent',
      'renamed.yaml',
      '--workers',
      '0',
      ...shard,
      '--out',
      out,
      '--reporter',
      'json',
    ]);
  [uncut, silent, optedOut, invalid, ...shards] = await Promise.all([
    naive('uncut.yaml', 'uncut'),
    faultline(['run', 'unreachable.yaml', '--config', 'naive', '--workers', '0', '--out', 'silent', ...all], { cwd }),
    naive('may-not-fire.yaml', 'opted-out'),
    cli(['run', 'invalid.yaml', '--workers', '0', '--out', 'invalid']),
    renamed('shard-1', '--shard', '1/2'),
    renamed('shard-2', '--shard', '2/2'),
  ]);
  [merged, whole] = await Promise.all([
    cli(['merge', 'shard-1/faultline.json', 'shard-2/faultline.json', '--out', 'merged', '--reporter', 'json']),
    renamed('whole'),
  ]);
});

afterAll(() => dir.cleanup());

describe('a fault rule that never fires leaves its cell not exercised', () => {
  it('a lie that told nothing (a cut longer than the list) did not fire', async () => {
    expect(uncut.stderr).not.toMatch(/error|crashed/);
    expect(uncut.code).toBe(1);
    expect(uncut.stdout).toContain(
      'faults[0] (list_outbox, truncated, times 1) never fired in 4 trials: the cell is not exercised',
    );
    const report = parseJsonReport(await read('uncut', 'faultline.json'));
    expect(JSON.stringify(report)).toMatch(/"firings":0/);
  });

  it('exits 1 although every trial passed, and the console names the rule', () => {
    expect(silent.stderr).not.toMatch(/error|crashed/);
    expect(silent.code).toBe(1);
    expect(silent.stdout).toContain('4/4');
    expect(silent.stdout).toMatch(/✓ pass\^k>=1 held in 1 cell/);
    expect(silent.stdout).toContain(
      `✗ unexercised==0 failed in 1 of 1 cells: order-partial-write-idempotent × naive: ${MESSAGE}`,
    );
    // The coverage table: the rule, what it matches, the trials it fired in, its firings.
    expect(silent.stdout).toMatch(
      /fault coverage\n.*\n {2}✗ order-partial-write-idempotent +naive +faults\[0\] +create_order call 7, partial_write, times 1 +0\/4 trials +0 {2}not exercised/,
    );
  });

  it('the JSON report carries the coverage and the failed gate (schema 4 on)', async () => {
    const report = parseJsonReport(await read('silent', 'faultline.json'));
    expect(report.schemaVersion).toBe(JSON_SCHEMA_VERSION);
    const cell = report.cells[0]!;
    expect(cell.status).toBe('passed');
    expect(cell.metrics.coverage).toEqual([
      { rule: 0, label: 'create_order call 7, partial_write, times 1', mustFire: true, trials: 0, firings: 0 },
    ]);
    expect(report.gates.passed).toBe(false);
    expect(report.gates.results.find((g) => g.gate === 'unexercised==0')).toMatchObject({
      passed: false,
      actual: 1,
      message: expect.stringContaining(MESSAGE),
    });
  });

  it('JUnit fails the cell’s case and the gate’s, naming the rule', async () => {
    const junit = parseXml(await read('silent', 'junit.xml'));
    const cell = xmlElements(junit, 'testcase').find((c) => c.attrs['name'] === 'order-partial-write-idempotent')!;
    expect(xmlElements(cell, 'failure').map((f) => f.attrs)).toEqual([{ message: MESSAGE, type: 'not-exercised' }]);
    expect(xmlElements(cell, 'property').find((p) => p.attrs['name']?.startsWith('faults[0]'))?.attrs['value']).toBe(
      'fired in 0/4 trials, 0 times',
    );
    const gate = xmlElements(junit, 'testcase').find((c) => c.attrs['name'] === 'unexercised==0')!;
    expect(xmlElements(gate, 'failure')[0]?.attrs['message']).toContain(MESSAGE);
  });

  it('the Markdown summary opens its coverage table and names the rule in the gate', async () => {
    const md = await read('silent', 'summary.md');
    expect(md).toContain('## faultline: ❌ 1 of 4 gates failed');
    expect(md).toContain('<summary>❌ Fault coverage: 1 rule never fired</summary>');
    expect(md).toContain(
      '| order-partial-write-idempotent | naive | faults\\[0\\] | create\\_order call 7, partial\\_write, times 1 | ❌ 0/4 trials | 0 |',
    );
    expect(md).toContain(
      `- ❌ \`unexercised==0\`: failed in 1 of 1 cells: order-partial-write-idempotent × naive: faults\\[0\\] (create\\_order call 7`,
    );
  });

  it('the HTML report embeds the coverage, the reason and the gates', async () => {
    const html = await read('silent', 'report.html');
    const data = JSON.parse(
      /<script type="application\/json" id="faultline-data">(.*?)<\/script>/s.exec(html)![1]!,
    ) as {
      cells: { coverage: unknown[]; notExercised: string[] }[];
      gates: { gate: string; passed: boolean; message: string }[];
    };
    expect(data.cells[0]!.coverage).toEqual([
      { rule: 0, label: 'create_order call 7, partial_write, times 1', mustFire: true, trials: 0, firings: 0 },
    ]);
    expect(data.cells[0]!.notExercised).toEqual([MESSAGE]);
    expect(data.gates.find((g) => g.gate === 'unexercised==0')).toMatchObject({
      passed: false,
      message: expect.stringContaining(MESSAGE),
    });
  });

  it('`expect: may-not-fire` opts the rule out: the run passes and still shows it never fired', async () => {
    expect(optedOut.code).toBe(0);
    expect(optedOut.stdout).toContain('✓ unexercised==0 held in 1 cell');
    expect(optedOut.stdout).toMatch(
      /faults\[0\] +create_order call 7, partial_write, times 1 +0\/4 trials \(may not fire\) +0/,
    );
    const report = parseJsonReport(await read('opted-out', 'faultline.json'));
    expect(report.cells[0]!.metrics.coverage).toEqual([
      { rule: 0, label: 'create_order call 7, partial_write, times 1', mustFire: false, trials: 0, firings: 0 },
    ]);
  });

  it('an `expect` that is neither value is bad input (exit 2) naming the file and the path', () => {
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('invalid.yaml');
    expect(invalid.stderr).toMatch(/faults\[0\]\.expect/);
    expect(invalid.stderr).toMatch(/fires|may-not-fire/);
  });

  it('shards merge coverage to the unsharded run’s figures', async () => {
    for (const s of shards) expect(s.code, s.stderr).toBe(1);
    expect(merged.code, merged.stderr).toBe(1);
    expect(whole.code).toBe(1);
    const coverageOf = async (folder: string) =>
      parseJsonReport(await read(folder, 'faultline.json')).cells.map((c) => [c.scenario, c.metrics.coverage]);
    const expected = await coverageOf('whole');
    expect(expected).toEqual([
      [
        'order-partial-write-idempotent',
        [{ rule: 0, label: 'create_order, partial_write, times 1', mustFire: true, trials: 4, firings: 4 }],
      ],
      [
        'never-fires',
        [{ rule: 0, label: 'create_order call 7, partial_write, times 1', mustFire: true, trials: 0, firings: 0 }],
      ],
    ]);
    expect(await coverageOf('merged')).toEqual(expected);
    expect(
      parseJsonReport(await read('merged', 'faultline.json')).gates.results.find((g) => g.gate === 'unexercised==0')
        ?.message,
    ).toContain('never-fires × rulebook: faults[0]');
  });
});

/**
 * `faultline sweep` counts coverage at every point: a scenario's own rule that never fires leaves
 * each of its points not exercised (λ = 0 included), and so does a swept fault that fired in no
 * trial of a whole point at λ > 0 (a stream fault, on agents that never stream); at λ = 0 the
 * sweep's own rule cannot fire and is never held against the point. Gates judge it as `run` does.
 */
describe('sweep counts coverage per cell at each point', () => {
  const SWEEP = ['sweep', '--config', 'naive', '--k', '2', '--lambda', '0,0.5', '--workers', '0'];
  const STREAM = [...SWEEP, 'order-partial-write-idempotent', 'read-timeout-retry', '--fault', 'stream_cut'];
  let stream: Finished;
  let gated: Finished;
  let allowed: Finished;
  let own: Finished;
  let view: Finished;
  let merge: Finished;
  let written: string;

  beforeAll(async () => {
    const cwd = dir.path;
    [stream, gated, allowed, own] = await Promise.all([
      faultline([...STREAM, '--out', 'sweep-stream'], { cwd }),
      cli([...STREAM, '--gate', 'pass^k>=0', '--out', 'sweep-gated', '--reporter', 'console']),
      cli([
        ...STREAM,
        '--gate',
        'pass^k>=0',
        '--may-not-fire',
        '--out',
        'sweep-allowed',
        '--reporter',
        'console',
        '--reporter',
        'json',
      ]),
      cli([
        ...SWEEP,
        'unreachable.yaml',
        '--fault',
        'rate_limit',
        '--gate',
        'duplicates==0',
        '--out',
        'sweep-own',
        '--reporter',
        'console',
        '--reporter',
        'json',
      ]),
    ]);
    written = await read('sweep-stream', 'sweep.html');
    await writeFile(join(cwd, 'sweep-stream', 'sweep.html'), 'stale');
    [view, merge] = await Promise.all([
      cli(['view', 'sweep-stream/sweep.json']),
      cli(['merge', 'sweep-stream/sweep.json', '--out', 'merged-sweep']),
    ]);
  });

  it('shows each rule of each cell at each λ in sweep.json (schema 3), and marks the points a swept fault never reached', async () => {
    expect(stream.code, stream.stderr).toBe(0);
    const json = SweepJsonSchema.parse(JSON.parse(await read('sweep-stream', 'sweep.json')));
    expect(json.schemaVersion).toBe(3);
    expect(json.sweep.mayNotFire).toBe(false);
    const [zero, half] = json.sweep.series[0]!.points;
    const partial = (p: typeof zero) => p!.cells.find((c) => c.scenario === 'order-partial-write-idempotent')!;
    // λ = 0: the scenario's own partial write fired in both trials; the sweep's stream cut could not fire, and is not held against the point.
    expect(partial(zero)).toEqual({
      scenario: 'order-partial-write-idempotent',
      config: 'naive',
      trials: 2,
      coverage: [
        { rule: 0, label: 'create_order, partial_write, times 1', mustFire: true, trials: 2, firings: 2 },
        { rule: 1, label: 'any tool p=0, stream_cut', mustFire: false, trials: 0, firings: 0 },
      ],
      unexercised: [],
    });
    // λ = 0.5: no agent streams, so the stream cut fired nowhere in the point: every cell is not exercised by it.
    for (const cell of half!.cells) {
      expect(cell.coverage.at(-1)).toMatchObject({ rule: 1, mustFire: true, trials: 0, firings: 0 });
      expect(cell.unexercised).toEqual([1]);
    }
    expect(json.sweep.notExercised).toEqual([
      'stream_cut λ=0.5 × order-partial-write-idempotent × naive: faults[1] (any tool p=0.5, stream_cut) never fired in 2 trials: the cell is not exercised',
      'stream_cut λ=0.5 × read-timeout-retry × naive: faults[1] (any tool p=0.5, stream_cut) never fired in 2 trials: the cell is not exercised',
    ]);
    expect(json.sweep.byConfig[0]!.points.map((p) => p.unexercised)).toEqual([0, 2]);
    expect(json.sweep.byScenario.map((c) => c.points.map((p) => p.unexercised))).toEqual([
      [0, 1],
      [0, 1],
    ]);
    // No gate named: a sweep is a measurement and exits 0, but says what it did not measure.
    expect(stream.stdout).toMatch(/^not exercised: 2 rules fired in no trial of a cell where they had to$/m);
    expect(stream.stdout).toMatch(
      /order-partial-write-idempotent +naive +faults\[1\] +the sweep's stream_cut, any tool p=λ +0\/2 0× +0\/2 0× not exercised/,
    );
  });

  it('marks them in sweep.md and sweep.html too', async () => {
    const md = await read('sweep-stream', 'sweep.md');
    expect(md).toContain('### Not exercised');
    expect(md).toContain(
      '- ❌ stream\\_cut λ=0.5 × order-partial-write-idempotent × naive: faults\\[1\\] (any tool p=0.5, stream\\_cut) never fired in 2 trials: the cell is not exercised',
    );
    expect(md).toMatch(
      /\| order-partial-write-idempotent \| naive \| faults\\\[0\\\] \| create\\_order, partial\\_write, times 1 \| 2\/2 2× \| 2\/2 2× \|/,
    );
    expect(md).toContain('❌ 0/2 0× not exercised');
    const html = await read('sweep-stream', 'sweep.html');
    expect(html).toContain('stream_cut: fault coverage');
    expect(html).toContain(
      'not exercised: stream_cut λ=0.5 × read-timeout-retry × naive: faults[1] (any tool p=0.5, stream_cut) never fired in 2 trials',
    );
  });

  it('with a gate, judges unexercised==0 beside it at every point, as run does; --may-not-fire lets the sweep’s own rules be silent', async () => {
    expect(gated.code, gated.stderr).toBe(1);
    expect(gated.stdout).toContain('✓ pass^k>=0 held at every λ (2 points)');
    expect(gated.stdout).toContain(
      '✗ unexercised==0 failed at 1 of 2 points: stream_cut λ=0.5: unexercised==0 failed in 2 of 2 cells: order-partial-write-idempotent × naive: faults[1] (any tool p=0.5, stream_cut) never fired in 2 trials: the cell is not exercised',
    );
    expect(allowed.code, allowed.stdout + allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain('✓ unexercised==0 held at every λ (2 points)');
    expect(allowed.stdout).not.toMatch(/not exercised/);
    const json = SweepJsonSchema.parse(JSON.parse(await read('sweep-allowed', 'sweep.json')));
    expect(json.sweep.mayNotFire).toBe(true);
    expect(
      json.sweep.series[0]!.points[1]!.cells.every(
        (c) => c.coverage.at(-1)!.mustFire === false && c.coverage.at(-1)!.trials === 0,
      ),
    ).toBe(true);
  });

  it("a scenario's own rule that never fires leaves every point not exercised, λ = 0 included, and fails the gates", async () => {
    expect(own.code, own.stderr).toBe(1);
    expect(own.stdout).toMatch(
      /✗ unexercised==0 failed at 2 of 2 points: rate_limit λ=0: unexercised==0 failed in 1 of 1 cells: order-partial-write-idempotent × naive: faults\[0\] \(create_order call 7, partial_write, times 1\) never fired in 2 trials/,
    );
    const json = SweepJsonSchema.parse(JSON.parse(await read('sweep-own', 'sweep.json')));
    expect(json.sweep.series[0]!.points.map((p) => p.cells[0]!.unexercised)).toEqual([[0], [0]]);
  });

  it('view draws sweep.html again from sweep.json, the same page; merge refuses a sweep.json, exit 2', async () => {
    expect(view.code, view.stderr).toBe(0);
    expect(view.stdout.trim()).toBe(join('sweep-stream', 'sweep.html'));
    expect(await read('sweep-stream', 'sweep.html')).toBe(written);
    expect(merge.code).toBe(2);
    expect(merge.stderr).toContain(
      "sweep-stream/sweep.json: a sweep report (sweep.json, schemaVersion 3), not a run's faultline.json",
    );
  });
});
