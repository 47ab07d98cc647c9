import { chmod, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, tempDir, type Finished } from './faultline.js';
import { inProcess } from './inProcess.js';
import { ORDER_AGENT_YAML } from './orderAgent.js';

/**
 * Every refusal the CLI can decide before the first trial exits 2 before it, naming the file
 * or flag, the path inside it and what was expected, with no stack trace (issue 13).
 * The first case and the ones run as another user go through the real binary; the others run the
 * CLI's entry in this process (./inProcess.ts), whose output and exit code are the binary's.
 */

const AGENT = ORDER_AGENT_YAML;
const JSON_AGENT = `"agent": { "kind": "scripted", "task": "Create order ref-1", "plan": { "steps": [{ "name": "order", "tool": "create_order", "input": { "clientReference": "ref-1", "item": "book", "quantity": 1, "amountCents": 1500 } }] } }`;
const BOMB = [
  'a: &a [x, x, x, x, x, x, x, x, x]',
  ...['b', 'c', 'd'].map((n, i) => `${n}: &${n} [${Array(9).fill(`*${'abc'[i]}`).join(', ')}]`),
  `e: [${Array(9).fill('*d').join(', ')}]`,
].join('\n');

const BAD: readonly { file: string; text: string; expect: RegExp }[] = [
  {
    file: 'undefined-alias.yaml',
    text: `name: undefined-alias\ndescription: *nowhere\n${AGENT}`,
    expect: /undefined-alias\.yaml:2:14: not valid YAML: the alias \*nowhere names no anchor defined before it/,
  },
  {
    file: 'alias-bomb.yaml',
    text: `${BOMB}\n`,
    expect: /alias-bomb\.yaml: not valid YAML: Excessive alias count .*expected at most 100 alias expansions/,
  },
  {
    file: 'python-tag.yaml',
    text: `name: !!python/object:os.system python-tag\n${AGENT}`,
    expect: /python-tag\.yaml:1:7: not valid YAML: Unresolved tag: tag:yaml\.org,2002:python\/object:os\.system/,
  },
  {
    file: 'yaml-13.yaml',
    text: `%YAML 1.3\n---\nname: yaml-13\n${AGENT}`,
    expect: /yaml-13\.yaml:1:7: not valid YAML: Unsupported YAML version 1\.3/,
  },
  {
    file: 'dup-key.json',
    text: `{ "name": "dup-key", ${JSON_AGENT}, "faults": [{ "match": { "tool": "create_order" }, "fault": { "kind": "meteor" }, "fault": { "kind": "timeout" } }] }`,
    expect: /dup-key\.json:1:\d+: faults\[0\]: the key "fault" appears twice; expected each key once per object/,
  },
  {
    file: 'proto-state.yaml',
    text: `name: proto-state\ngoal:\n  state:\n    __proto__: { orders: 1 }\n${AGENT}`,
    expect: /proto-state\.yaml: goal\.state\.__proto__: the key "__proto__" is not allowed/,
  },
  {
    file: 'proto-effects.json',
    text: `{ "name": "proto-effects", ${JSON_AGENT}, "goal": { "effects": { "__proto__": 1 } } }`,
    expect: /proto-effects\.json: goal\.effects\.__proto__: the key "__proto__" is not allowed/,
  },
  {
    file: 'throw-undefined.ts',
    text: 'throw undefined;\nexport default {};\n',
    expect: /throw-undefined\.ts: the module failed to load: a non-Error value \(undefined\)/,
  },
  {
    file: 'throw-string.ts',
    text: "throw 'nope';\nexport default {};\n",
    expect: /throw-string\.ts: the module failed to load: "nope"/,
  },
  {
    file: 'getter.ts',
    text: "export default { get name(): string { throw new Error('getter boom'); } };\n",
    expect: /getter\.ts: reading the default export threw getter boom/,
  },
  {
    file: 'proxy.ts',
    text: 'export default new Proxy({}, { get() { throw 42; }, ownKeys() { throw 43; } });\n',
    expect: /proxy\.ts: reading the default export threw a non-Error value \(4[23]\)/,
  },
];

let dir: Awaited<ReturnType<typeof tempDir>>;
const run = (args: readonly string[]): Promise<Finished> => inProcess(args, { cwd: dir.path });

beforeAll(async () => {
  dir = await tempDir('refusals');
  for (const bad of BAD) await writeFile(join(dir.path, bad.file), bad.text);
  await writeFile(join(dir.path, 'good.yaml'), `name: good\n${AGENT}`);
  await writeFile(join(dir.path, 'bom.json'), `\uFEFF{ "name": "bom-json", ${JSON_AGENT} }`);
  await writeFile(join(dir.path, 'bom.yaml'), `\uFEFFname: bom-yaml\n${AGENT}`);
  await mkdir(join(dir.path, 'empty'));
  await mkdir(join(dir.path, 'other'));
  await writeFile(join(dir.path, 'other', 'README.txt'), 'not a scenario\n');
  await mkdir(join(dir.path, 'nested', 'inner'), { recursive: true });
  await writeFile(join(dir.path, 'nested', 'inner', 'good.yaml'), `name: inner\n${AGENT}`);
  await writeFile(join(dir.path, 'a-file'), 'x');
});
afterAll(() => dir.cleanup());

function refused(r: Finished, ...patterns: RegExp[]): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stderr).not.toMatch(/crashed/);
  // Refused before the first trial: no progress line, no report.
  expect(r.stderr).not.toMatch(/\[\d+\/\d+ trials\]/);
  for (const p of patterns) expect(r.stderr).toMatch(p);
}

describe('bad files are refused before the first trial', () => {
  it('names every bad file with the path inside it and what was expected', async () => {
    const r = await faultline(['run', ...BAD.map((b) => b.file), 'good.yaml', '--k', '1', '--reporter', 'console'], {
      cwd: dir.path,
    });
    refused(r, new RegExp(`^error: ${BAD.length} scenario files could not be loaded:`));
    const blocks = r.stderr.trimEnd().split('\n\n').slice(1);
    expect(blocks).toHaveLength(BAD.length);
    BAD.forEach((bad, i) => expect(blocks[i], bad.file).toMatch(bad.expect));
  });

  it('accepts a UTF-8 byte-order mark in JSON as in YAML', async () => {
    const r = await run(['run', 'bom.json', 'bom.yaml', '--k', '1', '--reporter', 'console']);
    expect(r.stderr).toMatch(/✓ rulebook × bom-json: 1\/1 passed/);
    expect(r.stderr).toMatch(/✓ rulebook × bom-yaml: 1\/1 passed/);
    expect(r.code).toBe(0);
  });

  it('refuses a folder with no scenario in it, naming the folder', async () => {
    const [empty, other, nested, config] = await Promise.all([
      run(['run', 'empty', '--k', '1']),
      run(['run', 'other', '--k', '1']),
      run(['run', 'nested', '--k', '1']),
      run(['run', 'good.yaml', '--config', 'empty', '--k', '1']),
    ]);
    refused(empty, /^error: empty: no scenario files in this folder \(expected \.yaml, \.yml, \.json, \.ts/);
    refused(other, /^error: other: no scenario files in this folder/);
    refused(
      nested,
      /^error: nested: no scenario files in this folder .*subfolders are not searched: name nested\/inner instead/,
    );
    refused(config, /^error: empty: no configuration files in this folder/);
    expect(await readdir(dir.path)).not.toContain('reports');
  });

  it('refuses a scenario folder it cannot read', async () => {
    const locked = join(dir.path, 'locked');
    await mkdir(locked);
    await writeFile(join(locked, 'good.yaml'), `name: locked\n${AGENT}`);
    await chmod(locked, 0o000);
    try {
      // Root reads any folder: run the CLI as an unprivileged user then, so the folder is truly unreadable.
      const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
      if (process.getuid?.() === 0) await chmod(dir.path, 0o777);
      const r = await faultline(['run', 'locked', '--k', '1', '--reporter', 'console'], { cwd: dir.path, ...asUser });
      refused(r, /^error: locked: cannot read the scenario folder \(EACCES\)/);
    } finally {
      await chmod(locked, 0o755);
    }
  });
});

describe('gates that can never hold are refused before the run', () => {
  it('names each gate and why', async () => {
    const [tooFew, rate, scope, several] = await Promise.all([
      run(['run', 'good.yaml', '--k', '1', '--gate', 'pass^5>=1']),
      run(['run', 'good.yaml', '--k', '1', '--gate', 'pass_rate>=1.5']),
      run(['run', 'good.yaml', '--k', '1', '--gate', 'nosuch:duplicates==0']),
      run([
        'run',
        'good.yaml',
        '--k',
        '2',
        '--gate',
        'config=nosuch:pass^1>=1',
        '--gate',
        'pass@3>0.5',
        '--gate',
        'duplicates<0',
      ]),
    ]);
    refused(
      tooFew,
      /^error: --gate pass\^5>=1 can never hold: pass\^5 needs at least 5 trials per cell, and this run has --k 1$/m,
    );
    refused(rate, /^error: --gate pass_rate>=1\.5 can never hold: pass_rate is a rate from 0 to 1$/m);
    refused(
      scope,
      /^error: --gate nosuch:duplicates==0 can never hold: no scenario "nosuch" in this run \(scenarios: good\)$/m,
    );
    refused(
      several,
      /^error: 3 gates can never hold:$/m,
      /- --gate config=nosuch:pass\^1>=1 can never hold: no configuration "nosuch" in this run \(configs: rulebook\)/,
      /- --gate pass@3>0\.5 can never hold: pass@3 needs at least 3 trials/,
      /- --gate duplicates<0 can never hold: duplicates is never negative/,
    );
  });
});

describe('output paths are checked before the run', () => {
  it('refuses --out onto a file, under a file, a device or an empty path', async () => {
    const [onFile, underFile, device, empty] = await Promise.all([
      run(['run', 'good.yaml', '--k', '1', '--out', 'a-file']),
      run(['run', 'good.yaml', '--k', '1', '--out', 'a-file/reports']),
      run(['run', 'good.yaml', '--k', '1', '--out', '/dev/null']),
      run(['run', 'good.yaml', '--k', '1', '--out', '']),
    ]);
    refused(onFile, /^error: --out a-file: expected a folder, but a-file is a file$/m);
    refused(
      underFile,
      /^error: --out a-file\/reports: cannot create the folder a-file\/reports \(a part of the path is a file\)$/m,
    );
    refused(device, /^error: --out \/dev\/null: expected a folder, but \/dev\/null is a device$/m);
    refused(empty, /^error: --out: expected a folder path, got an empty string$/m);
  });

  it('refuses a GITHUB_STEP_SUMMARY that is a folder', async () => {
    const r = await inProcess(['run', 'good.yaml', '--k', '1', '--reporter', 'console'], {
      cwd: dir.path,
      env: { GITHUB_STEP_SUMMARY: join(dir.path, 'empty') },
    });
    refused(
      r,
      new RegExp(
        `^error: GITHUB_STEP_SUMMARY=${join(dir.path, 'empty')}: expected a file to append the Markdown summary to, but it is a folder$`,
        'm',
      ),
    );
  });

  it('refuses an unwritable --out folder', async () => {
    const readOnly = join(dir.path, 'read-only');
    await mkdir(readOnly);
    await chmod(readOnly, 0o555);
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    if (process.getuid?.() === 0) await chmod(dir.path, 0o777);
    const r = await faultline(['run', 'good.yaml', '--k', '1', '--out', 'read-only'], { cwd: dir.path, ...asUser });
    refused(r, /^error: --out read-only: cannot write into the folder read-only \(EACCES\)$/m);
    expect(await readdir(readOnly)).toEqual([]);
  });

  it('refuses schema --out onto a folder or a device', async () => {
    const [folder, device] = await Promise.all([
      run(['schema', '--out', 'empty']),
      run(['schema', '--out', '/dev/null']),
    ]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toBe('error: --out empty: expected a file, but it is a folder\n');
    expect(device.code).toBe(2);
    expect(device.stderr).toBe('error: --out /dev/null: expected a regular file, but it is a device\n');
  });
});
