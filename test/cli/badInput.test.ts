import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';
import { ORDER_AGENT_YAML } from './orderAgent.js';

/**
 * Bad scenario and configuration files end with exit 2 and a message that names the file, the
 * path inside it and what was expected, never with a stack trace.
 */

const AGENT = ORDER_AGENT_YAML;
const TS_AGENT = `{ kind: 'scripted', task: 'Create order ref-1', plan: { steps: [{ name: 'order', tool: 'create_order', input: { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 } }] } }`;

interface BadFile {
  readonly file: string;
  /** Absent for a file that should not exist. */
  readonly text?: string;
  readonly expect: readonly RegExp[];
  /** Passed as --config instead of as a scenario. */
  readonly asConfig?: boolean;
}

const BAD: readonly BadFile[] = [
  {
    file: 'syntax.yaml',
    text: 'name: syntax\nagent: [\n  kind: x\n',
    expect: [/syntax\.yaml:4:1: not valid YAML: Flow sequence/],
  },
  {
    file: 'dupkey.yaml',
    text: `name: a\nname: b\n${AGENT}`,
    expect: [/dupkey\.yaml:2:1: not valid YAML: Map keys must be unique/],
  },
  {
    file: 'fault-kind.yaml',
    text: `name: fault-kind\nfaults:\n  - match: { tool: create_order }\n    fault: { kind: meteor }\n${AGENT}`,
    expect: [/fault-kind\.yaml: invalid scenario "fault-kind"/, /faults\[0\]\.fault\.kind: .*'timeout' \| 'latency'/],
  },
  {
    file: 'bad-status.yaml',
    text: `name: bad-status\nfaults:\n  - match: { tool: create_order }\n    fault: { kind: unavailable, status: 418 }\n${AGENT}`,
    expect: [/bad-status\.yaml/, /faults\[0\]\.fault\.status: .*expected one of 500\|502\|503\|504\|529/],
  },
  {
    file: 'no-agent.yaml',
    text: 'name: no-agent\ndescription: nothing to run\n',
    expect: [/no-agent\.yaml/, /- agent: .*expected object, received undefined/],
  },
  {
    file: 'extra-key.yaml',
    text: `name: extra-key\nretries: 3\n${AGENT}`,
    expect: [/extra-key\.yaml/, /\(root\): Unrecognized key: "retries"/],
  },
  {
    file: 'wrong-type.yaml',
    text: `name: wrong-type\nbudget: { maxTurns: ten }\n${AGENT}`,
    expect: [/wrong-type\.yaml/, /budget\.maxTurns: .*expected number, received string/],
  },
  {
    file: 'bad-rule.yaml',
    text: `name: bad-rule\nrules: [rule-7]\n${AGENT}`,
    expect: [/bad-rule\.yaml/, /rules\[0\]: expected a rule id such as "R7"/],
  },
  {
    file: 'bad-placeholder.yaml',
    text: `name: bad-placeholder\n${AGENT}      - tool: get_order\n        input: { orderId: $nosuch.orderId }\n`,
    expect: [/bad-placeholder\.yaml/, /agent\.plan\.steps\[1\]\.input: "\$nosuch" names no earlier step/],
  },
  {
    // The step's placeholder is filled at run time and not judged; the written amount is.
    file: 'bad-step-input.yaml',
    text:
      `name: bad-step-input\n${AGENT}      - tool: charge_payment\n` +
      `        input: { paymentReference: pay-1, orderId: $order.orderId, amountCents: twelve, currency: EUR }\n`,
    expect: [
      /bad-step-input\.yaml: invalid scenario "bad-step-input":\n {2}- agent\.plan\.steps\[1\]\.input\.amountCents: /,
      /amountCents: Invalid input: expected number, received string \(by the input schema of "charge_payment"\)$/,
    ],
  },
  {
    file: 'bad-checker.yaml',
    text: `name: bad-checker\nchecks: [vibes]\n${AGENT}`,
    expect: [/bad-checker\.yaml/, /checks\[0\]: .*expected one of "goal-state"\|"duplicates"/],
  },
  {
    file: 'bad-name.yaml',
    text: `name: Bad Name\n${AGENT}`,
    expect: [/bad-name\.yaml/, /name: expected a lowercase slug/],
  },
  {
    file: 'notes.txt',
    text: 'name: txt\n',
    expect: [/notes\.txt: unsupported file type "\.txt"; expected one of \.yaml, \.yml, \.json, \.ts/],
  },
  { file: 'missing.yaml', expect: [/no scenario file or built-in scenario named "missing\.yaml"/] },
  { file: 'json-bad.json', text: '{ "name": "json-bad", }\n', expect: [/json-bad\.json: not valid JSON/] },
  {
    file: 'ts-bad.ts',
    text: `export default { name: 'ts-bad', agent: { kind: 'scripted', task: '' } };\n`,
    expect: [/ts-bad\.ts: invalid scenario "ts-bad"/, /agent\.task: Too small/, /agent\.plan: .*expected object/],
  },
  {
    file: 'ts-no-default.ts',
    text: 'export const scenario = 1;\n',
    expect: [/ts-no-default\.ts: expected a default export/],
  },
  {
    file: 'ts-throws.ts',
    text: `throw new Error('boom at import');\nexport default {};\n`,
    expect: [/ts-throws\.ts: the module failed to load: boom at import/],
  },
  {
    file: 'bad-config.yaml',
    text: 'name: mine\nbackoff: { kind: exponential, baseMs: 100 }\nmaxAttempts: 0\n',
    asConfig: true,
    expect: [
      /bad-config\.yaml: invalid retry configuration/,
      /backoff\.capMs: .*expected number/,
      /maxAttempts: .*expected number to be >0/,
    ],
  },
];

let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  dir = await tempDir('bad');
  for (const bad of BAD) if (bad.text !== undefined) await writeFile(join(dir.path, bad.file), bad.text);
  await writeFile(join(dir.path, 'good.ts'), `export default { name: 'good-ts', agent: ${TS_AGENT} };\n`);
});

afterAll(() => dir.cleanup());

// The first case runs the real binary; the others run the CLI's entry in this process (./inProcess.ts).
const cli = (args: readonly string[]) => inProcess(args, { cwd: dir.path });

const scenarioFiles = BAD.filter((b) => !b.asConfig);

describe('bad input exits 2 and says what and where', () => {
  it('lists every bad scenario file at once, each with its path inside the file and what was expected', async () => {
    const r = await faultline(['run', ...scenarioFiles.map((b) => b.file), 'good.ts', '--k', '1'], { cwd: dir.path });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const [head, ...blocks] = r.stderr.trimEnd().split('\n\n');
    expect(head).toBe(`error: ${scenarioFiles.length} scenario files could not be loaded:`);
    expect(blocks).toHaveLength(scenarioFiles.length);
    scenarioFiles.forEach((bad, i) => {
      for (const pattern of bad.expect) expect(blocks[i], bad.file).toMatch(pattern);
    });
  });

  it('reports a single bad file on its own', async () => {
    const r = await cli(['run', 'bad-rule.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: bad-rule.yaml: invalid scenario "bad-rule":\n  - rules[0]: expected a rule id such as "R7"\n',
    );
  });

  it('reports a bad configuration file', async () => {
    const bad = BAD.find((b) => b.asConfig)!;
    const r = await cli(['run', 'good.ts', '--config', bad.file, '--k', '1']);
    expect(r.code).toBe(2);
    for (const pattern of bad.expect) expect(r.stderr).toMatch(pattern);
  });

  it('a valid TypeScript scenario outside an ES-module package loads and runs', async () => {
    const r = await cli(['run', 'good.ts', '--k', '1', '--reporter', 'console']);
    expect(r.stderr).toBe('✓ rulebook × good-ts: 1/1 passed [1/1 trials]\n');
    expect(r.code).toBe(0);
  });
});
