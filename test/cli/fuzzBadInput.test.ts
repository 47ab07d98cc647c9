import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, tempDir, type Finished } from './faultline.js';
import { inProcess } from './inProcess.js';

/**
 * Fuzzing the loader and the pre-run checks through the CLI: malformed scenario
 * and configuration files (YAML, JSON, TypeScript), folders with nothing to load, gates that
 * can never hold and output paths that cannot be written. Every case must be refused with
 * exit 2 before the first trial, the file (or flag) named with what was wrong, and no stack
 * trace. Cases are batched: one `faultline run` lists every bad file of a batch at once,
 * each in its own block, in the order given, so a batch of thirty costs one process.
 * The first batch (the lies' parameters) runs the real binary, end to end; the fuzzed batches
 * run the CLI's entry in this process (./inProcess.ts), the same compiled code, which spares a
 * Node start and the CLI's modules per batch.
 */

/** A case: what to write, and what its block of the error must say. */
interface Case {
  readonly ext: '.yaml' | '.json' | '.ts' | '/';
  readonly role: 'scenario' | 'config';
  readonly cls: string;
  /** File text, or for a folder (`ext: '/'`) the files to put in it. */
  readonly content: string | readonly { readonly path: string; readonly text: string }[];
  /** What the refusal says, beyond naming the file. */
  readonly says: RegExp;
}

const ident = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const scenarioYaml = (name: string, extra = ''): string =>
  `name: ${name}\n${extra}agent:\n  kind: scripted\n  task: Create order ref-1\n  plan:\n    steps:\n      - name: order\n        tool: create_order\n        input: { clientReference: ref-1, item: book, quantity: 1, amountCents: 1500 }\n`;
const configYaml = (name: string, extra = ''): string =>
  `name: ${name}\n${extra}backoff: { kind: exponential, baseMs: 100, capMs: 1000 }\nmaxAttempts: 3\n`;
const baseYaml = (role: Case['role'], name: string, extra = ''): string =>
  role === 'scenario' ? scenarioYaml(name, extra) : configYaml(name, extra);
const scenarioObject = (name: string): Record<string, unknown> => ({
  name,
  agent: {
    kind: 'scripted',
    task: 'Create order ref-1',
    plan: {
      steps: [
        {
          name: 'order',
          tool: 'create_order',
          input: { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 },
        },
      ],
    },
  },
});
const configObject = (name: string): Record<string, unknown> => ({
  name,
  backoff: { kind: 'exponential', baseMs: 100, capMs: 1000 },
  maxAttempts: 3,
});
const role = fc.constantFrom<Case['role']>('scenario', 'config');

// --- YAML -------------------------------------------------------------------------------
const undefinedAlias = fc.record({ role, anchor: ident }).map(({ role: r, anchor }): Case => ({
  ext: '.yaml',
  role: r,
  cls: 'yaml undefined alias',
  content: baseYaml(r, 'fz', `description: *${anchor}\n`),
  says: new RegExp(`:\\d+:\\d+: not valid YAML: the alias \\*${anchor} names no anchor defined before it`),
}));

const aliasBomb = fc
  .record({ role, width: fc.integer({ min: 5, max: 12 }), depth: fc.integer({ min: 3, max: 7 }) })
  .map(({ role: r, width, depth }): Case => {
    const lines = [`l0: &l0 [${Array(width).fill('lol').join(', ')}]`];
    for (let d = 1; d <= depth; d++)
      lines.push(
        `l${d}: &l${d} [${Array(width)
          .fill(`*l${d - 1}`)
          .join(', ')}]`,
      );
    return {
      ext: '.yaml',
      role: r,
      cls: 'yaml alias bomb',
      content: `${lines.join('\n')}\n${baseYaml(r, 'fz')}`,
      says: /not valid YAML: Excessive alias count .*expected at most 100 alias expansions/,
    };
  });

const unknownTag = fc
  .record({
    role,
    tag: fc.oneof(
      fc.constantFrom(
        '!!python/object:os.system',
        '!!python/object/apply:subprocess.check_output',
        '!!js/function',
        '!!ruby/object:Gem::Requirement',
      ),
      ident.map((i) => `!${i}`),
    ),
  })
  .map(({ role: r, tag }): Case => ({
    ext: '.yaml',
    role: r,
    cls: 'yaml unknown tag',
    content: baseYaml(r, 'fz', `description: ${tag} payload\n`),
    says: /:\d+:\d+: not valid YAML: Unresolved tag: /,
  }));

const directive = fc
  .record({
    role,
    d: fc.oneof(
      fc
        .tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 }))
        .filter(([a, b]) => !(a === 1 && (b === 1 || b === 2)))
        .map(([a, b]) => `%YAML ${a}.${b}`),
      ident.filter((i) => i !== 'yaml' && i !== 'tag').map((i) => `%${i.toUpperCase()} x`),
    ),
  })
  .map(({ role: r, d }): Case => ({
    ext: '.yaml',
    role: r,
    cls: 'yaml directive',
    content: `${d}\n---\n${baseYaml(r, 'fz')}`,
    says: /:1:\d+: not valid YAML: (Unsupported YAML version|Unknown directive)/,
  }));

const yamlDuplicate = fc
  .record({ role, key: fc.constantFrom('name', 'description') })
  .map(({ role: r, key }): Case => ({
    ext: '.yaml',
    role: r,
    cls: 'yaml duplicate key',
    content: baseYaml(r, 'fz', `${key}: one\n${key}: two\n`),
    says: /:\d+:\d+: not valid YAML: Map keys must be unique/,
  }));

const yamlSyntax = fc
  .constantFrom(
    'agent: [\n  kind: x\n',
    'name: "unterminated\n',
    'a:\n\t- tab indented\n',
    'key: value: other\n',
    '- a\nb: c\n',
  )
  .map((text): Case => ({
    ext: '.yaml',
    role: 'scenario',
    cls: 'yaml syntax',
    content: text,
    says: /(:\d+:\d+)?: not valid YAML: /,
  }));

const protoIn = fc.constantFrom('goal.state', 'goal.effects');
const yamlProto = protoIn.map((where): Case => ({
  ext: '.yaml',
  role: 'scenario',
  cls: 'yaml __proto__ key',
  content: scenarioYaml(
    'fz',
    `goal:\n  ${where.split('.')[1]}:\n    __proto__: ${where === 'goal.effects' ? '1' : '{ orders: 1 }'}\n`,
  ),
  says: new RegExp(`${where.replace('.', '\\.')}\\.__proto__: the key "__proto__" is not allowed`),
}));

/** Bad parameters of the faults that look like success: each named, with what it must be. */
const LIE_PARAMETER_CASES = [
  {
    extra: 'faults:\n  - fault: { kind: stale, lagMs: 0 }\n',
    says: /faults\[0\]\.fault\.lagMs: Too small: expected number to be >0/,
  },
  { extra: 'faults:\n  - fault: { kind: stale }\n', says: /faults\[0\]\.fault\.lagMs: Invalid input: expected number/ },
  {
    extra: 'faults:\n  - fault: { kind: stale, lagMs: soon }\n',
    says: /faults\[0\]\.fault\.lagMs: Invalid input: expected number/,
  },
  {
    extra: 'faults:\n  - fault: { kind: truncated, keep: -1 }\n',
    says: /faults\[0\]\.fault\.keep: Too small: expected number to be >=0/,
  },
  {
    extra: 'faults:\n  - fault: { kind: truncated, keep: 1.5 }\n',
    says: /faults\[0\]\.fault\.keep: Invalid input: expected int/,
  },
  {
    extra: 'faults:\n  - fault: { kind: wrong_value, path: "a..b" }\n',
    says: /faults\[0\]\.fault\.path: expected a dotted path such as "status"/,
  },
  {
    extra: 'faults:\n  - fault: { kind: wrong_value }\n',
    says: /faults\[0\]\.fault\.path: Invalid input: expected string/,
  },
  // A stale rule aimed at a write alone could never fire: refused, not reported afterwards as not exercised.
  {
    extra: 'faults:\n  - match: { tool: create_order }\n    fault: { kind: stale, lagMs: 1000 }\n',
    says: /faults\[0\]\.fault: stale never fires on "create_order" \(risk: [a-z-]+\): a write's own answer is never stale/,
  },
];

const schemaViolation = fc
  .constantFrom(
    { extra: 'budget: { maxTurns: ten }\n', says: /budget\.maxTurns: .*expected number/ },
    { extra: 'retries: 3\n', says: /\(root\): Unrecognized key: "retries"/ },
    {
      extra: 'faults:\n  - match: { tool: create_order }\n    fault: { kind: meteor }\n',
      says: /faults\[0\]\.fault\.kind: /,
    },
    { extra: 'rules: [rule-7]\n', says: /rules\[0\]: expected a rule id/ },
    // A model route in a scenario that serves no model: named, with what to add.
    {
      extra: 'faults:\n  - match: { tool: model:openai.chat.completions }\n    fault: { kind: quota_exceeded }\n',
      says: /faults\[0\]\.match\.tool: "model:openai\.chat\.completions": a route of the openai model API, which this scenario does not serve: it names no model/,
    },
    { extra: 'faults:\n  - fault: { kind: stream_cut }\n', says: /faults\[0\]\.fault\.afterEvents: / },
    {
      extra: 'faults:\n  - fault: { kind: stream_stall, afterEvents: -1 }\n',
      says: /faults\[0\]\.fault\.afterEvents: /,
    },
    // A capacity drop (the trigger of a metastable failure) that ends before it starts, overlaps another, or has negative slots.
    {
      extra:
        'world:\n  orders: { capacity: { maxConcurrent: 2, drops: [{ fromMs: 500, toMs: 100, maxConcurrent: 1 }] } }\n',
      says: /world\.orders\.capacity\.drops\[0\]\.toMs: expected toMs after fromMs/,
    },
    {
      extra:
        'world:\n  orders: { capacity: { drops: [{ fromMs: 0, toMs: 900, maxConcurrent: 1 }, { fromMs: 800, toMs: 1000, maxConcurrent: 0 }] } }\n',
      says: /world\.orders\.capacity\.drops\[1\]\.fromMs: expected drops in time order, not overlapping/,
    },
    {
      extra: 'world:\n  orders: { capacity: { drops: [{ fromMs: 0, toMs: 900, maxConcurrent: -1 }] } }\n',
      says: /world\.orders\.capacity\.drops\[0\]\.maxConcurrent: .*>=0/,
    },
    {
      extra: 'world:\n  orders: { capacity: { drops: [{ fromMs: 0, toMs: 900 }] } }\n',
      says: /world\.orders\.capacity\.drops\[0\]\.maxConcurrent: .*expected number/,
    },
    ...LIE_PARAMETER_CASES,
  )
  .map(({ extra, says }): Case => ({
    ext: '.yaml',
    role: 'scenario',
    cls: 'yaml schema violation',
    content: scenarioYaml('fz', extra),
    says,
  }));

// A client overload policy in a configuration with a value out of its range.
const badClientPolicy = fc
  .constantFrom(
    { extra: 'adaptiveThrottling: { k: 0.5 }\n', says: /adaptiveThrottling\.k: .*>=1/ },
    { extra: 'adaptiveThrottling: { windowMs: 0 }\n', says: /adaptiveThrottling\.windowMs: .*>0/ },
    { extra: 'retryQuota: { capacity: -500 }\n', says: /retryQuota\.capacity: .*>0/ },
    { extra: 'retryQuota: { retryCost: 2.5 }\n', says: /retryQuota\.retryCost: .*int/ },
    { extra: 'retryRatio: { ratio: 1.5 }\n', says: /retryRatio\.ratio: .*<=1/ },
    { extra: 'retryRatio: { windowMs: 10000 }\n', says: /retryRatio\.ratio: / },
    { extra: 'retryRatio: { ratio: 0.1, perSecond: 1 }\n', says: /retryRatio: Unrecognized key: "perSecond"/ },
  )
  .map(({ extra, says }): Case => ({
    ext: '.yaml',
    role: 'config',
    cls: 'bad client policy',
    content: configYaml('fz', extra),
    says,
  }));
// Heal and recovery: a heal instant that is no instant, recovery fields of the wrong kind, and the combinations that cannot mean anything.
const OUTAGE = 'faults:\n  - match: { tool: create_order }\n    fault: { kind: unavailable, status: 503 }\n';
const badHeal = fc
  .oneof(
    fc.integer({ min: -100_000, max: -1 }).map((n) => ({
      extra: `${OUTAGE}heal: { atMs: ${n} }\n`,
      says: /heal\.atMs: Too small: expected number to be >=0/,
    })),
    fc
      .constantFrom('5s', 'soon', 'true', '[1]', '{ ms: 1 }', 'null', '.inf')
      .map((v) => ({ extra: `${OUTAGE}heal: { atMs: ${v} }\n`, says: /heal\.atMs: / })),
    fc
      .constantFrom('5000', '[5000]', 'yes')
      .map((v) => ({ extra: `${OUTAGE}heal: ${v}\n`, says: /heal: Invalid input: expected object/ })),
    ident.map((k) => ({
      extra: `${OUTAGE}heal: { atMs: 1, x${k}: 2 }\n`,
      says: new RegExp(`heal: Unrecognized key: "x${k}"`),
    })),
    fc.constantFrom('later', '-1', '[1]').map((v) => ({
      extra: `${OUTAGE}heal: { atMs: 1 }\nrecovery: { withinMs: ${v} }\n`,
      says: /recovery\.withinMs: /,
    })),
    fc.constantFrom('1.5', '-2', 'two').map((v) => ({
      extra: `${OUTAGE}heal: { atMs: 1 }\nrecovery: { withinMs: 1, maxCallsAfter: ${v} }\n`,
      says: /recovery\.maxCallsAfter: /,
    })),
    fc.constantFrom('-1', 'long').map((v) => ({
      extra: `${OUTAGE}heal: { atMs: 1 }\nrecovery: { withinMs: 1, maxStaleWaitMs: ${v} }\n`,
      says: /recovery\.maxStaleWaitMs: /,
    })),
    fc.integer({ min: 0, max: 60_000 }).map((n) => ({
      extra: `${OUTAGE}recovery: { withinMs: ${n} }\n`,
      says: /recovery: judged from the moment the faults heal, and this scenario has no heal; expected heal: \{ atMs \} beside it/,
    })),
    fc.constant({
      extra: `${OUTAGE}heal: { atMs: 1 }\nchecks: [recovery]\n`,
      says: /checks: "recovery" judges a recovery expectation, and this scenario has none/,
    }),
    fc.integer({ min: 1, max: 10_000 }).map((n) => ({
      extra: `faults:\n  - match: { from: ${n + 5} }\n    fault: { kind: timeout }\nheal: { atMs: ${n} }\n`,
      says: new RegExp(
        `faults\\[0\\]\\.match\\.from: ${n + 5} is not before heal\\.atMs \\(${n}\\): the rule could never fire`,
      ),
    })),
  )
  .map(({ extra, says }): Case => ({
    ext: '.yaml',
    role: 'scenario',
    cls: 'bad heal or recovery',
    content: scenarioYaml('fz', extra),
    says,
  }));

// A behaviour mixture with an unknown name, a negative or non-numeric weight, or weights that sum to 0.
const badMixture = fc
  .oneof(
    fc
      .record({ name: ident.filter((n) => n !== 'careful'), w: fc.double({ min: 0, max: 1, noNaN: true }) })
      .map(({ name, w }) => ({
        mix: `{ careful: 0.5, ${name}x: ${w} }`,
        says: new RegExp(`agent\\.behaviour\\.${name}x: "${name}x" is not a behaviour`),
      })),
    fc.double({ min: -100, max: -0.001, noNaN: true }).map((w) => ({
      mix: `{ careful: 1, ignores-retry-after: ${w} }`,
      says: /agent\.behaviour\.ignores-retry-after: expected a weight, a finite number ≥ 0/,
    })),
    fc
      .constantFrom('{ careful: 0 }', '{}', '{ careful: 0, retries-blindly: 0 }')
      .map((mix) => ({ mix, says: /agent\.behaviour: the weights sum to 0/ })),
    fc.constantFrom('lots', 'true', '[1]').map((w) => ({
      mix: `{ careful: ${w} }`,
      says: /agent\.behaviour\.careful: expected a weight, a finite number ≥ 0/,
    })),
  )
  .map(({ mix, says }): Case => ({
    ext: '.yaml',
    role: 'scenario',
    cls: 'bad behaviour mixture',
    content: scenarioYaml('fz').replace('  kind: scripted\n', `  kind: scripted\n  behaviour: ${mix}\n`),
    says,
  }));

// --- JSON -------------------------------------------------------------------------------
const jsonDuplicate = fc
  .record({ role, bom: fc.boolean(), at: fc.constantFrom('root', 'nested') })
  .map(({ role: r, bom, at }): Case => {
    const obj = r === 'scenario' ? scenarioObject('fz') : configObject('fz');
    const body = JSON.stringify(obj);
    // Repeat a key in the root object, or in the agent / backoff object inside it.
    const text =
      at === 'root'
        ? body.replace(/^\{"name":"fz"/, '{"name":"fz","name":"again"')
        : r === 'scenario'
          ? body.replace('"kind":"scripted"', '"kind":"scripted","kind":"function"')
          : body.replace('"kind":"exponential"', '"kind":"exponential","kind":"constant"');
    const path = at === 'root' ? '\\(root\\)' : r === 'scenario' ? 'agent' : 'backoff';
    const key = at === 'root' ? 'name' : 'kind';
    return {
      ext: '.json',
      role: r,
      cls: 'json duplicate key',
      content: `${bom ? '\uFEFF' : ''}${text}`,
      says: new RegExp(`:1:\\d+: ${path}: the key "${key}" appears twice`),
    };
  });

const jsonSyntax = fc
  .record({ role, cut: fc.integer({ min: 0, max: 60 }), bom: fc.boolean() })
  .map(({ role: r, cut, bom }): Case => {
    const body = JSON.stringify(r === 'scenario' ? scenarioObject('fz') : configObject('fz'));
    return {
      ext: '.json',
      role: r,
      cls: 'json syntax',
      content: `${bom ? '\uFEFF' : ''}${body.slice(0, Math.min(cut, body.length - 1))}`,
      says: /: not valid JSON: /,
    };
  });

const jsonProto = fc.record({ where: protoIn, bom: fc.boolean() }).map(({ where, bom }): Case => {
  const obj = scenarioObject('fz');
  const inner = where === 'goal.effects' ? '{"__proto__": 1}' : '{"__proto__": {"orders": 1}}';
  const text = JSON.stringify(obj).replace(/\}$/, `,"goal":{"${where.split('.')[1]}":${inner}}}`);
  return {
    ext: '.json',
    role: 'scenario',
    cls: 'json __proto__ key',
    content: `${bom ? '\uFEFF' : ''}${text}`,
    says: new RegExp(`${where.replace('.', '\\.')}\\.__proto__: the key "__proto__" is not allowed`),
  };
});

// --- TypeScript -------------------------------------------------------------------------
const thrownValue = fc.constantFrom(
  { code: 'undefined', says: 'a non-Error value \\(undefined\\)' },
  { code: 'null', says: 'a non-Error value \\(null\\)' },
  { code: '42', says: 'a non-Error value \\(42\\)' },
  { code: "'plain string'", says: '"plain string"' },
  { code: '{ code: 7 }', says: 'a non-Error value \\(\\{"code":7\\}\\)' },
  { code: "Symbol('s')", says: 'a non-Error value \\(Symbol\\(s\\)\\)' },
  { code: "new Error('boom')", says: 'boom' },
  { code: "new TypeError('typed')", says: 'typed' },
);

const tsThrowAtLoad = fc.record({ role, thrown: thrownValue }).map(({ role: r, thrown }): Case => ({
  ext: '.ts',
  role: r,
  cls: 'ts throws at import',
  content: `throw ${thrown.code};\nexport default {};\n`,
  says: new RegExp(`the module failed to load: ${thrown.says}`),
}));

const tsGetter = fc
  .record({ role, thrown: thrownValue, field: fc.constantFrom('name', 'agent', 'goal', 'backoff', 'faults') })
  .map(({ role: r, thrown, field }): Case => ({
    ext: '.ts',
    role: r,
    cls: 'ts throwing getter',
    content: `export default { name: 'fz', get ${field}(): never { throw ${thrown.code}; } };\n`,
    says: new RegExp(`reading the default export threw ${thrown.says}`),
  }));

const tsProxy = fc
  .record({
    role,
    thrown: thrownValue,
    traps: fc
      .subarray(['get', 'ownKeys', 'getOwnPropertyDescriptor', 'has', 'getPrototypeOf'], { minLength: 1 })
      .filter((t) => t.some((x) => x !== 'has')),
  })
  .map(({ role: r, thrown, traps }): Case => ({
    ext: '.ts',
    role: r,
    cls: 'ts throwing proxy',
    content: `export default new Proxy({ name: 'fz' }, { ${traps.map((t) => `${t}() { throw ${thrown.code}; }`).join(', ')} });\n`,
    says: new RegExp(`reading the default export threw ${thrown.says}`),
  }));

const tsNoDefault = fc
  .constantFrom(
    { code: 'export const scenario = 1;\n', says: /expected a default export/ },
    { code: 'export default 42;\n', says: /(invalid scenario|invalid retry configuration|expected)/ },
    { code: 'export default null;\n', says: /(invalid scenario|invalid retry configuration|expected)/ },
    {
      code: "export default Promise.resolve({ name: 'fz' });\n",
      says: /the default export is a promise; expected the object itself/,
    },
    { code: 'export default { then() { throw undefined; } };\n', says: /the default export is a promise/ },
    { code: 'export default { name: "fz", agent: { kind: "scripted", task: ', says: /the module failed to load: / },
  )
  .chain((c) =>
    role.map((r): Case => ({ ext: '.ts', role: r, cls: 'ts bad default export', content: c.code, says: c.says })),
  );

// --- Folders ----------------------------------------------------------------------------
const otherFile = fc
  .tuple(ident, fc.constantFrom('.txt', '.md', '.yaml~', '.json.bak', '.d.ts', ''))
  .map(([n, e]) => `${n}${e}`);
const folder = fc
  .oneof(
    fc.constant({
      files: [] as { path: string; text: string }[],
      says: /no (scenario|configuration) files in this folder/,
    }),
    fc.uniqueArray(otherFile, { minLength: 1, maxLength: 3 }).map((names) => ({
      files: names.map((n) => ({ path: n, text: 'x' })),
      says: /no (scenario|configuration) files in this folder/,
    })),
    ident.map((sub) => ({
      files: [{ path: `${sub}/good.yaml`, text: scenarioYaml('nested') }],
      says: /no (scenario|configuration) files in this folder .*subfolders are not searched/,
    })),
  )
  .chain((f) =>
    role.map((r): Case => ({ ext: '/', role: r, cls: 'folder with nothing to load', content: f.files, says: f.says })),
  );

// A command agent's fields: each bad one refused by path before any program starts.
const commandAgent = fc
  .oneof(
    fc.constantFrom(
      { agent: 'argv: []', says: /agent\.argv: Too small/ },
      { agent: 'argv: [sh]\n  timeoutMs: -5', says: /agent\.timeoutMs: Too small/ },
      { agent: 'argv: [sh]\n  env: { PATH: 1 }', says: /agent\.env\.PATH: Invalid input: expected string/ },
      { agent: 'argv: sh agent.sh', says: /agent\.argv: Invalid input: expected array/ },
      { agent: 'argv: [sh]\n  shell: true', says: /agent: Unrecognized key: "shell"/ },
    ),
    // Where it starts (issue 43 #12): empty, not a string, a path that is no folder, a folder that is not there.
    fc.constantFrom(
      { agent: "argv: [sh]\n  cwd: ''", says: /agent\.cwd: Too small: expected string to have >=1 characters/ },
      { agent: 'argv: [sh]\n  cwd: 7', says: /agent\.cwd: Invalid input: expected string/ },
      { agent: 'argv: [sh]\n  cwd: /dev/null', says: /agent\.cwd: "\/dev\/null": not a folder/ },
    ),
    ident.map((name) => ({
      agent: `argv: [sh]\n  cwd: ./no-${name}`,
      says: new RegExp(`agent\\.cwd: ".*no-${name}": no such folder; expected the folder the agent command starts in`),
    })),
  )
  .map(({ agent, says }): Case => ({
    ext: '.yaml',
    role: 'scenario',
    cls: 'command agent',
    content: `name: fz\nagent:\n  kind: command\n  ${agent}\n`,
    says,
  }));

const badFile = fc.oneof(
  commandAgent,
  undefinedAlias,
  aliasBomb,
  unknownTag,
  directive,
  yamlDuplicate,
  yamlSyntax,
  yamlProto,
  schemaViolation,
  badClientPolicy,
  badHeal,
  badMixture,
  jsonDuplicate,
  jsonSyntax,
  jsonProto,
  tsThrowAtLoad,
  tsGetter,
  tsProxy,
  tsNoDefault,
  folder,
);

// --- Flags ------------------------------------------------------------------------------
const impossibleGate = fc.oneof(
  fc
    .integer({ min: 3, max: 50 })
    .map((n) => ({ gate: `pass^${n}>=0.5`, says: `pass\\^${n} needs at least ${n} trials per cell` })),
  fc
    .integer({ min: 3, max: 50 })
    .map((n) => ({ gate: `pass@${n}>0`, says: `pass@${n} needs at least ${n} trials per cell` })),
  fc
    .integer({ min: 101, max: 999 })
    .map((n) => ({ gate: `pass_rate>=${n / 100}`, says: 'pass_rate is a rate from 0 to 1' })),
  fc.integer({ min: 1, max: 99 }).map((n) => ({ gate: `duplicates<-${n}`, says: 'duplicates is never negative' })),
  fc
    .integer({ min: 101, max: 999 })
    .map((n) => ({ gate: `recovery>=${n / 100}`, says: 'recovery is a rate from 0 to 1' })),
  ident.map((s) => ({ gate: `zz${s}:duplicates==0`, says: `no scenario "zz${s}" in this run` })),
  ident.map((c) => ({ gate: `config=zz${c}:pass^1>=1`, says: `no configuration "zz${c}" in this run` })),
);
const badOut = fc.constantFrom(
  { out: 'a-file', says: /--out a-file: expected a folder, but a-file is a file/ },
  { out: 'a-file/below', says: /--out a-file\/below: cannot create the folder .*a part of the path is a file/ },
  { out: '/dev/null', says: /--out \/dev\/null: expected a folder, but \/dev\/null is a device/ },
  { out: '', says: /--out: expected a folder path, got an empty string/ },
);

// ------------------------------------------------------------------------------------------

let dir: Awaited<ReturnType<typeof tempDir>>;
let seq = 0;
const tally = { cases: 0, crashes: 0, accepted: 0 };

// A bound on each process's wall time: an alias bomb or a hang must not stall the suite. Only a
// hang's bound: generous, so a loaded machine's slow but finishing run is never taken for one.
const BOUND_MS = 300_000;
async function cli(args: readonly string[], via: 'binary' | 'in process' = 'in process'): Promise<Finished> {
  const run = via === 'binary' ? start(args, { cwd: dir.path }) : undefined;
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // A case in process that hangs cannot be killed: it fails here, and so do the cases queued behind it.
      run?.child.kill('SIGKILL');
      reject(new Error(`faultline ${args.slice(0, 3).join(' ')}… did not finish within ${BOUND_MS} ms`));
    }, BOUND_MS);
  });
  try {
    return await Promise.race([run?.done ?? inProcess(args, { cwd: dir.path }), bound]);
  } finally {
    clearTimeout(timer);
  }
}

async function materialize(c: Case): Promise<string> {
  const ref = `case-${++seq}-${c.cls.replace(/\W+/g, '-')}${c.ext === '/' ? '' : c.ext}`;
  if (typeof c.content === 'string') await writeFile(join(dir.path, ref), c.content);
  else {
    await mkdir(join(dir.path, ref));
    for (const f of c.content) {
      await mkdir(join(dir.path, ref, f.path, '..'), { recursive: true });
      await writeFile(join(dir.path, ref, f.path), f.text);
    }
  }
  return ref;
}

/** Judges one batch: exit 2, one block per case in order, each naming its file and saying what is wrong, no stack. */
function judge(r: Finished, refs: readonly string[], cases: readonly Case[], what: string): void {
  tally.cases += cases.length;
  if (r.code === 3 || /\n\s+at |crashed/.test(r.stderr)) tally.crashes++;
  if (r.code === 0 || r.code === 1) tally.accepted++;
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stderr).not.toMatch(/\[\d+\/\d+ trials\]/);
  const blocks = cases.length === 1 ? [r.stderr] : r.stderr.trimEnd().split('\n\n').slice(1);
  if (cases.length > 1)
    expect(r.stderr.split('\n')[0]).toBe(`error: ${cases.length} ${what} files could not be loaded:`);
  expect(blocks, r.stderr).toHaveLength(cases.length);
  cases.forEach((c, i) => {
    expect(blocks[i], `${c.cls}: ${refs[i]}`).toContain(refs[i]);
    expect(blocks[i], `${c.cls}: ${refs[i]}`).toMatch(c.says);
  });
}

beforeAll(async () => {
  dir = await tempDir('fuzz');
  await writeFile(join(dir.path, 'good.yaml'), scenarioYaml('good'));
  await writeFile(join(dir.path, 'a-file'), 'x');
});
afterAll(async () => {
  // The numbers the issue note quotes.
  console.info(`fuzz: ${tally.cases} malformed inputs, ${tally.crashes} crashes, ${tally.accepted} silently accepted`);
  await dir.cleanup();
});

describe('bad parameters of the faults that look like success', () => {
  it('every one (lagMs, keep, path) is refused with exit 2, naming the file, the path in it and what was expected', async () => {
    const cases = LIE_PARAMETER_CASES.map(({ extra, says }): Case => ({
      ext: '.yaml',
      role: 'scenario',
      cls: 'lie fault parameter',
      content: scenarioYaml('fz', extra),
      says,
    }));
    const refs = await Promise.all(cases.map(materialize));
    judge(await cli(['run', ...refs, '--k', '1', '--reporter', 'console'], 'binary'), refs, cases, 'scenario');
  });
});

describe('fuzzed bad input is refused with exit 2 before the first trial', () => {
  it('malformed scenario and configuration files, folders, gates and output paths', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(badFile, { minLength: 25, maxLength: 45 }),
        fc.uniqueArray(impossibleGate, { minLength: 1, maxLength: 4, selector: (g) => g.gate }),
        badOut,
        async (cases, gates, out) => {
          const scenarios = cases.filter((c) => c.role === 'scenario');
          const configs = cases.filter((c) => c.role === 'config');
          const scenarioRefs = await Promise.all(scenarios.map(materialize));
          const configRefs = await Promise.all(configs.map(materialize));
          const [s, c, g, o] = await Promise.all([
            scenarios.length > 0 ? cli(['run', ...scenarioRefs, '--k', '1', '--reporter', 'console']) : undefined,
            configs.length > 0
              ? cli([
                  'run',
                  'good.yaml',
                  ...configRefs.flatMap((ref) => ['--config', ref]),
                  '--k',
                  '1',
                  '--reporter',
                  'console',
                ])
              : undefined,
            cli(['run', 'good.yaml', '--k', '2', ...gates.flatMap((x) => ['--gate', x.gate]), '--reporter', 'console']),
            cli(['run', 'good.yaml', '--k', '1', '--out', out.out]),
          ]);
          if (s) judge(s, scenarioRefs, scenarios, 'scenario');
          if (c) judge(c, configRefs, configs, 'configuration');

          tally.cases += gates.length + 1;
          for (const r of [g, o]) {
            if (r.code === 3 || /\n\s+at |crashed/.test(r.stderr)) tally.crashes++;
            if (r.code === 0 || r.code === 1) tally.accepted++;
            expect(r.code, r.stderr).toBe(2);
            expect(r.stderr).not.toMatch(/\n\s+at /);
            expect(r.stderr).not.toMatch(/\[\d+\/\d+ trials\]/);
          }
          if (gates.length > 1) expect(g.stderr.split('\n')[0]).toBe(`error: ${gates.length} gates can never hold:`);
          for (const x of gates)
            expect(g.stderr).toMatch(
              new RegExp(`--gate ${x.gate.replace(/[\^.*+?()[\]{}|$\\]/g, '\\$&')} can never hold: ${x.says}`),
            );
          expect(o.stderr).toMatch(out.says);
        },
      ),
      { numRuns: 5, endOnFailure: true },
    );
    expect(tally.crashes).toBe(0);
    expect(tally.accepted).toBe(0);
  });
});
