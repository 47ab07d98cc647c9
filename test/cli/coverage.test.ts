import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonReport } from '../../src/report/json.js';
import { parseXml, xmlElements } from '../../src/report/testing.js';
import { faultline, tempDir, type Finished } from './faultline.js';

/**
 * Fault coverage end to end: the built-in partial-write scenario with its rule moved to a call
 * that never happens (`call: 7`) passes every trial, and must still fail the run as not
 * exercised, in every reporter; `expect: may-not-fire` opts the rule out.
 */

const LIBRARY = new URL('../../scenarios/order-partial-write-idempotent.yaml', import.meta.url);
const RULE = /faults:\n {2}- match: \{ tool: create_order \}\n/;
const MESSAGE = 'faults[0] (create_order call 7, partial_write, times 1) never fired in 4 trials: the cell is not exercised';

let dir: Awaited<ReturnType<typeof tempDir>>;
let silent: Finished;
let optedOut: Finished;
let invalid: Finished;
let shards: Finished[];
let merged: Finished;
let whole: Finished;

const read = (...parts: string[]): Promise<string> => readFile(join(dir.path, ...parts), 'utf8');

beforeAll(async () => {
  dir = await tempDir('coverage');
  const cwd = dir.path;
  const original = await readFile(LIBRARY, 'utf8');
  expect(original).toMatch(RULE);
  await writeFile(join(cwd, 'unreachable.yaml'), original.replace(RULE, 'faults:\n  - match: { tool: create_order, call: 7 }\n'));
  await writeFile(join(cwd, 'may-not-fire.yaml'), original.replace(RULE, 'faults:\n  - match: { tool: create_order, call: 7 }\n    expect: may-not-fire\n'));
  await writeFile(join(cwd, 'renamed.yaml'), original.replace(RULE, 'faults:\n  - match: { tool: create_order, call: 7 }\n').replace('name: order-partial-write-idempotent', 'name: never-fires'));
  await writeFile(join(cwd, 'invalid.yaml'), original.replace(RULE, 'faults:\n  - match: { tool: create_order }\n    expect: sometimes\n'));
  const all = ['--reporter', 'console', '--reporter', 'json', '--reporter', 'junit', '--reporter', 'markdown', '--reporter', 'html'];
  [silent, optedOut, invalid, ...shards] = await Promise.all([
    faultline(['run', 'unreachable.yaml', '--config', 'naive', '--workers', '0', '--out', 'silent', ...all], { cwd }),
    faultline(['run', 'may-not-fire.yaml', '--config', 'naive', '--workers', '0', '--out', 'opted-out', '--reporter', 'console', '--reporter', 'json'], { cwd }),
    faultline(['run', 'invalid.yaml', '--workers', '0', '--out', 'invalid'], { cwd }),
    faultline(['run', 'order-partial-write-idempotent', 'renamed.yaml', '--workers', '0', '--shard', '1/2', '--out', 'shard-1', '--reporter', 'json'], { cwd }),
    faultline(['run', 'order-partial-write-idempotent', 'renamed.yaml', '--workers', '0', '--shard', '2/2', '--out', 'shard-2', '--reporter', 'json'], { cwd }),
  ]);
  [merged, whole] = await Promise.all([
    faultline(['merge', 'shard-1/faultline.json', 'shard-2/faultline.json', '--out', 'merged', '--reporter', 'json'], { cwd }),
    faultline(['run', 'order-partial-write-idempotent', 'renamed.yaml', '--workers', '0', '--out', 'whole', '--reporter', 'json'], { cwd }),
  ]);
}, 120_000);

afterAll(() => dir.cleanup());

describe('a fault rule that never fires leaves its cell not exercised', () => {
  it('exits 1 although every trial passed, and the console names the rule', () => {
    expect(silent.stderr).not.toMatch(/error|crashed/);
    expect(silent.code).toBe(1);
    expect(silent.stdout).toContain('4/4');
    expect(silent.stdout).toMatch(/✓ pass\^k>=1 held in 1 cell/);
    expect(silent.stdout).toContain(`✗ unexercised==0 failed in 1 of 1 cells: order-partial-write-idempotent × naive: ${MESSAGE}`);
    // The coverage table: the rule, what it matches, the trials it fired in, its firings.
    expect(silent.stdout).toMatch(/fault coverage\n.*\n {2}✗ order-partial-write-idempotent +naive +faults\[0\] +create_order call 7, partial_write, times 1 +0\/4 trials +0 {2}not exercised/);
  });

  it('the JSON report carries the coverage and the failed gate (schema 4)', async () => {
    const report = parseJsonReport(await read('silent', 'faultline.json'));
    expect(report.schemaVersion).toBe(4);
    const cell = report.cells[0]!;
    expect(cell.status).toBe('passed');
    expect(cell.metrics.coverage).toEqual([{ rule: 0, label: 'create_order call 7, partial_write, times 1', mustFire: true, trials: 0, firings: 0 }]);
    expect(report.gates.passed).toBe(false);
    expect(report.gates.results.find((g) => g.gate === 'unexercised==0')).toMatchObject({ passed: false, actual: 1, message: expect.stringContaining(MESSAGE) });
  });

  it('JUnit fails the cell’s case and the gate’s, naming the rule', async () => {
    const junit = parseXml(await read('silent', 'junit.xml'));
    const cell = xmlElements(junit, 'testcase').find((c) => c.attrs['name'] === 'order-partial-write-idempotent')!;
    expect(xmlElements(cell, 'failure').map((f) => f.attrs)).toEqual([{ message: MESSAGE, type: 'not-exercised' }]);
    expect(xmlElements(cell, 'property').find((p) => p.attrs['name']?.startsWith('faults[0]'))?.attrs['value']).toBe('fired in 0/4 trials, 0 times');
    const gate = xmlElements(junit, 'testcase').find((c) => c.attrs['name'] === 'unexercised==0')!;
    expect(xmlElements(gate, 'failure')[0]?.attrs['message']).toContain(MESSAGE);
  });

  it('the Markdown summary opens its coverage table and names the rule in the gate', async () => {
    const md = await read('silent', 'summary.md');
    expect(md).toContain('## faultline: ❌ 1 of 4 gates failed');
    expect(md).toContain('<summary>❌ Fault coverage: 1 rule never fired</summary>');
    expect(md).toContain('| order-partial-write-idempotent | naive | faults\\[0\\] | create\\_order call 7, partial\\_write, times 1 | ❌ 0/4 trials | 0 |');
    expect(md).toContain(`- ❌ \`unexercised==0\`: failed in 1 of 1 cells: order-partial-write-idempotent × naive: faults\\[0\\] (create\\_order call 7`);
  });

  it('the HTML report embeds the coverage, the reason and the gates', async () => {
    const html = await read('silent', 'report.html');
    const data = JSON.parse(/<script type="application\/json" id="faultline-data">(.*?)<\/script>/s.exec(html)![1]!) as {
      cells: { coverage: unknown[]; notExercised: string[] }[];
      gates: { gate: string; passed: boolean; message: string }[];
    };
    expect(data.cells[0]!.coverage).toEqual([{ rule: 0, label: 'create_order call 7, partial_write, times 1', mustFire: true, trials: 0, firings: 0 }]);
    expect(data.cells[0]!.notExercised).toEqual([MESSAGE]);
    expect(data.gates.find((g) => g.gate === 'unexercised==0')).toMatchObject({ passed: false, message: expect.stringContaining(MESSAGE) });
  });

  it('`expect: may-not-fire` opts the rule out: the run passes and still shows it never fired', async () => {
    expect(optedOut.code).toBe(0);
    expect(optedOut.stdout).toContain('✓ unexercised==0 held in 1 cell');
    expect(optedOut.stdout).toMatch(/faults\[0\] +create_order call 7, partial_write, times 1 +0\/4 trials \(may not fire\) +0/);
    const report = parseJsonReport(await read('opted-out', 'faultline.json'));
    expect(report.cells[0]!.metrics.coverage).toEqual([{ rule: 0, label: 'create_order call 7, partial_write, times 1', mustFire: false, trials: 0, firings: 0 }]);
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
    const coverageOf = async (folder: string) => parseJsonReport(await read(folder, 'faultline.json')).cells.map((c) => [c.scenario, c.metrics.coverage]);
    const expected = await coverageOf('whole');
    expect(expected).toEqual([
      ['order-partial-write-idempotent', [{ rule: 0, label: 'create_order, partial_write, times 1', mustFire: true, trials: 4, firings: 4 }]],
      ['never-fires', [{ rule: 0, label: 'create_order call 7, partial_write, times 1', mustFire: true, trials: 0, firings: 0 }]],
    ]);
    expect(await coverageOf('merged')).toEqual(expected);
    expect(parseJsonReport(await read('merged', 'faultline.json')).gates.results.find((g) => g.gate === 'unexercised==0')?.message).toContain('never-fires × rulebook: faults[0]');
  });
});
