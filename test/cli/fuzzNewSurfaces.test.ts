import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';
import { ticketsScenario, ticketsService } from './ticketsService.js';
import { CONFIG, fuzzSurfaces, HTTP_AGENT, httpScenario, SCENARIO, type Case } from './surfaceCases.js';

/**
 * Bad input on the surfaces added since the first fuzzing (issue 22): the config file, service
 * modules, http agent modules, cassettes, `network`, and the arguments of merge, view, explore,
 * mcp-proxy, mcp-serve and init; an agent that pollutes the process it runs in. How each case
 * runs and what it must end as: ./surfaceCases.ts. The agents whose workers run out of heap are
 * fuzzNewSurfacesHeap.test.ts, the modules that exit or never settle fuzzNewSurfacesExits.test.ts:
 * files of their own so that none runs long.
 */

// Values a user's code may throw, drawn once (fixed seed) so each run of the suite sees the same.
const thrown = fc.sample(fc.constantFrom('undefined', 'null', '42', "'text'", "new Error('boom')", '{ code: 7 }'), {
  numRuns: 3,
  seed: 22,
});

const crashes: Case[] = [
  {
    cls: 'JSON scenario nested 100,000 deep',
    files: { 'deep.json': `{"name":"deep","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}` },
    args: ['run', 'deep.json', '--k', '1'],
    code: 2,
    stderr: /deep\.json:1:\d+: the data is nested more than 256 levels deep/,
  },
  {
    cls: 'YAML scenario nested 100,000 deep',
    files: { 'deep.yaml': `name: deep\nx: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n` },
    args: ['run', 'deep.yaml', '--k', '1'],
    code: 2,
    stderr: /deep\.yaml:2:\d+: the data is nested more than 256 levels deep/,
  },
  {
    cls: 'cassette body nested 20,000 deep',
    files: {
      'over-http.yaml': httpScenario(undefined, 'model: { api: openai, cassette: ./deep.cassette.json }\n'),
      'agent.ts': HTTP_AGENT(''),
      'deep.cassette.json': `{"faultline":"cassette","version":1,"api":"openai","entries":[{"request":{"method":"POST","path":"/v1/chat/completions","body":${'['.repeat(20_000)}${']'.repeat(20_000)}},"response":{"status":200,"headers":{},"body":null}}]}`,
    },
    args: ['run', 'over-http.yaml', '--k', '1'],
    code: 2,
    stderr: /deep\.cassette\.json: the data is nested more than 256 levels deep/,
  },
  ...thrown.map((t): Case => ({
    cls: `service state function throws ${t}`,
    files: {
      'tickets.service.ts': ticketsService('').replace('state: {},', `state: () => { throw ${t}; },`),
      's.yaml': ticketsScenario(),
    },
    args: ['run', 's.yaml', '--k', '1'],
    code: 2,
    stderr: /s\.yaml: invalid scenario "tickets":\n\s+- service "tickets": the state function threw /,
  })),
  ...thrown.map((t): Case => ({
    cls: `service snapshot throws ${t}`,
    files: { 'tickets.service.ts': ticketsService(`snapshot: () => { throw ${t}; },`), 's.yaml': ticketsScenario() },
    args: ['run', 's.yaml', '--k', '1', '--reporter', 'console'],
    code: 1,
    stdout: /service "tickets": its snapshot threw/,
  })),
  // The same service under a command agent: its world is served, and snapshotted after the program exits.
  {
    cls: 'service snapshot throws under a command agent',
    files: {
      'tickets.service.ts': ticketsService(`snapshot: () => { throw new Error('boom'); },`),
      's.yaml': ticketsScenario().replace(
        /agent:[\s\S]*$/,
        "agent:\n  kind: command\n  task: Open a ticket\n  argv: [sh, -c, 'exit 0']\n",
      ),
    },
    args: ['run', 's.yaml', '--k', '1', '--reporter', 'console'],
    code: 1,
    stdout: /service "tickets": its snapshot threw/,
  },
  {
    cls: 'http agent module whose default export is a throwing Proxy',
    files: {
      'over-http.yaml': httpScenario(),
      'agent.ts': `export default new Proxy(function agent() {}, { get() { throw undefined; }, apply() { throw undefined; }, getPrototypeOf() { throw undefined; } });\n`,
    },
    args: ['run', 'over-http.yaml', '--k', '1'],
    code: 2,
    stderr: /over-http\.yaml: agent\.module \(\.\/agent\.ts\): .*threw/,
  },
  {
    cls: 'merge --out onto a file',
    files: { 'a-file': 'x' },
    args: ['merge', 'shard.json', '--out', 'a-file'],
    code: 2,
    stderr: /--out a-file: expected a folder, but a-file is a file/,
  },
  {
    cls: 'view in a read-only folder',
    files: {},
    args: ['view', 'ro/faultline.json'],
    asUser: true,
    binary: 'runs as another user',
    code: 2,
    stderr: /ro\/report\.html: cannot write the file \(EACCES/,
  },
  {
    cls: 'init --dir onto a file',
    files: { 'a-file': 'x' },
    args: ['init', '--dir', 'a-file'],
    code: 2,
    stderr: /--dir a-file: expected a folder, but a-file is a file/,
  },
  {
    cls: 'explore --path out of range',
    files: { 's.yaml': SCENARIO('s') },
    args: ['explore', 's.yaml', '--path', '99999:99:99', '--runs', '2'],
    code: 2,
    stderr: /--path 99999:99:99: no plan of s × rulebook at this path with seed 1/,
  },
  {
    cls: 'mcp-proxy: a server command that does not exist',
    binary: "mcp-proxy proxies the process's own stdin and stdout",
    files: { 'plan.yaml': '[]\n' },
    args: ['mcp-proxy', '--plan', 'plan.yaml', '--', './no-such-server'],
    code: 2,
    stderr: /cannot start the MCP server "\.\/no-such-server": ENOENT/,
  },
  {
    cls: 'mcp-proxy: a server command that is not executable',
    binary: "mcp-proxy proxies the process's own stdin and stdout",
    files: { 'plan.yaml': '[]\n', 'server.sh': 'echo hi\n' },
    args: ['mcp-proxy', '--plan', 'plan.yaml', '--', './server.sh'],
    code: 2,
    stderr: /cannot start the MCP server "\.\/server\.sh": EACCES/,
  },
  {
    cls: 'mcp-proxy --report onto a folder',
    binary: "mcp-proxy proxies the process's own stdin and stdout",
    files: { 'plan.yaml': '[]\n', 'afolder/x': 'x' },
    args: ['mcp-proxy', '--plan', 'plan.yaml', '--report', 'afolder', '--', 'node', '-e', ''],
    code: 2,
    stderr: /--report afolder: expected a file, but it is a folder/,
  },
];

const misleading: Case[] = [
  {
    cls: 'a config file gate that can never hold',
    files: { 'faultline.config.ts': CONFIG("{ k: 2, gates: ['pass^5>=1'] }"), 's.yaml': SCENARIO('s') },
    args: ['run', 's.yaml'],
    code: 2,
    stderr:
      /faultline\.config\.ts: gates\[0\] "pass\^5>=1" can never hold: pass\^5 needs at least 5 trials per cell, and this run has k = 2 \(from \S*faultline\.config\.ts: k\)/,
  },
  {
    cls: 'a config file outDir that is a file',
    files: { 'faultline.config.ts': CONFIG("{ outDir: 'afile' }"), afile: 'x', 's.yaml': SCENARIO('s') },
    args: ['run', 's.yaml', '--k', '1'],
    code: 2,
    stderr: /faultline\.config\.ts: outDir afile: expected a folder, but afile is a file/,
  },
  {
    cls: 'a bad scenarios entry in the config file',
    files: {
      'faultline.config.ts': CONFIG("{ scenarios: ['s.yaml', 'bad.yaml'] }"),
      's.yaml': SCENARIO('s'),
      'bad.yaml': 'name: bad\n',
    },
    args: ['run', '--k', '1'],
    code: 2,
    stderr: /faultline\.config\.ts: scenarios\[1\] \(bad\.yaml\): invalid scenario/,
  },
  {
    cls: 'a bad retryConfigs entry in the config file',
    files: {
      'faultline.config.ts': CONFIG("{ retryConfigs: ['rulebook', 'no-such-config'] }"),
      's.yaml': SCENARIO('s'),
    },
    args: ['run', 's.yaml', '--k', '1'],
    code: 2,
    stderr: /faultline\.config\.ts: retryConfigs\[1\] \(no-such-config\): /,
  },
  {
    cls: 'network.latency ms: .nan',
    files: { 's.yaml': SCENARIO('s', 'network:\n  latency: { kind: constant, ms: .nan }\n') },
    args: ['run', 's.yaml', '--k', '1'],
    code: 2,
    stderr: /network\.latency\.ms: expected a finite number/,
  },
  {
    cls: 'http agent block without module',
    files: { 'over-http.yaml': httpScenario('') },
    args: ['run', 'over-http.yaml', '--k', '1'],
    code: 2,
    stderr: /over-http\.yaml: invalid scenario "over-http":\n\s+- agent\.module: required/,
  },
  {
    cls: 'merge of a tampered report',
    files: {},
    args: ['merge', 'tampered.json', '--out', 'merged'],
    code: 2,
    stderr: /tampered\.json: not a faultline JSON report \(was it edited\?\):\n\s+- run\.k: /,
    also: (r) => expect(r.stderr).not.toMatch(/"code":|"path":/),
  },
  {
    cls: 'an agent that pollutes Object.prototype in process',
    binary: 'the agent pollutes the process it runs in (--workers 0)',
    files: {
      'over-http.yaml': httpScenario(),
      'agent.ts': HTTP_AGENT("(Object.prototype as Record<string, unknown>)['polluted'] = 1;"),
    },
    args: ['run', 'over-http.yaml', '--k', '1', '--workers', '0', '--reporter', 'console'],
    code: 1,
    stdout: /Object\.prototype/,
    also: (r) => expect(r.stderr + r.stdout).not.toMatch(/invalid options for service/),
  },
];

/** Raises SIGINT just before bin/faultline.js hands its start-up holders over: a signal queued while the CLI's modules evaluate. */
const SIGINT_WHILE_LOADING = `const off = process.off.bind(process);
let sent = false;
process.off = (name, fn) => {
  if (name === 'SIGINT' && !sent) {
    sent = true;
    process.kill(process.pid, 'SIGINT');
  }
  return off(name, fn);
};
`;

/** A TypeScript scenario whose agent creates an order, then spins. */
const SPINS = `export default {
  name: 'spins',
  agent: {
    kind: 'function',
    task: 'create an order, then spin',
    fn: async ({ tools }: { tools: Record<string, (input: unknown) => Promise<unknown>> }) => {
      await tools['create_order']!({ clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 });
      for (;;) { /* spin */ }
    },
  },
  goal: { effects: { 'order.created': 1 } },
};
`;

/** Issue 22's explore, signal and watchdog classes: refused, reported or kept, never lost. */
const lost: Case[] = [
  {
    cls: 'explore --ignore an unknown rule',
    files: { 's.yaml': SCENARIO('s') },
    args: ['explore', 's.yaml', '--ignore', 'R99', '--runs', '2'],
    code: 2,
    stderr: /--ignore: "R99" is not a checker .*, a rule \(R1 to R31\)/,
  },
  {
    cls: 'explore --ignore an unknown checker in a class',
    files: { 's.yaml': SCENARIO('s') },
    args: ['explore', 's.yaml', '--ignore', 'R7,nope/R2', '--runs', '2'],
    code: 2,
    stderr: /--ignore: "nope\/R2" is not a checker/,
  },
  {
    cls: 'explore --ignore with an empty entry',
    files: { 's.yaml': SCENARIO('s') },
    args: ['explore', 's.yaml', '--ignore', 'R7,,R9', '--runs', '2'],
    code: 2,
    stderr: /--ignore: expected a checker, a rule \(R1 to R31\) or a failure class .*, got an empty name/,
  },
  {
    cls: 'explore --check and --ignore of one checker',
    files: { 's.yaml': SCENARIO('s') },
    args: ['explore', 's.yaml', '--check', 'duplicates', '--ignore', 'duplicates', '--runs', '2'],
    code: 2,
    stderr: /--ignore duplicates: the same checker is named by --check/,
  },
  {
    cls: 'explore of a scenario that fails on its own goes on to the other failure classes',
    files: {},
    args: ['explore', 'order-partial-write-no-idempotency', '--config', 'naive', '--runs', '3'],
    code: 1,
    stdout:
      /fails with no added fault \(duplicates\/R23, retry-discipline\/R23\)[^]*: honesty\/R20 at plan 1; shrunk in \d+ steps/,
  },
  {
    cls: 'a SIGINT while the CLI is still loading',
    binary: 'a signal to the process',
    files: { 's.yaml': SCENARIO('s'), 'sigint.mjs': SIGINT_WHILE_LOADING },
    args: ['run', 's.yaml', '--k', '2', '--reporter', 'json', '--out', 'out'],
    env: { NODE_OPTIONS: '--import=./sigint.mjs' },
    code: 130,
    also: async (_r, dir) =>
      expect(
        (JSON.parse(await readFile(join(dir, 'out/faultline.json'), 'utf8')) as { run: { interrupted: boolean } }).run
          .interrupted,
      ).toBe(true),
  },
  {
    cls: 'a hung trial of run keeps its history',
    binary: 'the agent spins: only a worker the watchdog can end holds it',
    files: { 'spins.ts': SPINS },
    args: ['run', 'spins.ts', '--k', '1', '--trial-timeout', '1500', '--reporter', 'json', '--out', 'out'],
    code: 1,
    also: async (_r, dir) => {
      const report = JSON.parse(await readFile(join(dir, 'out/faultline.json'), 'utf8')) as {
        cells: { trials: { end: { kind: string }; history?: { type: string; effect?: string }[] }[] }[];
      };
      const trial = report.cells[0]!.trials[0]!;
      expect(trial.end.kind).toBe('hung');
      expect(trial.history?.some((e) => e.type === 'effect' && e.effect === 'order.created')).toBe(true);
    },
  },
];

/** A scenario whose model's route takes `fault` (issue 45's model-side mistakes), under `match`. */
const mistakeScenario = (fault: string, match = '{ tool: model:openai.chat.completions }', model = true): string =>
  httpScenario(
    undefined,
    `${model ? 'model:\n  api: openai\n  plan:\n    steps:\n      - { tool: create_order, input: { clientReference: ref-1, item: book, quantity: 1, amountCents: 1500 } }\n' : ''}` +
      `faults:\n  - match: ${match}\n    fault: ${fault}\n`,
  );

/** Issue 45's new fields: every bad value refused at load (exit 2), naming the field's path. */
const modelMistakeInput: Case[] = [
  [
    'invalid_arguments with an unknown break',
    '{ kind: invalid_arguments, break: sideways }',
    undefined,
    /faults\[0\]\.fault\.break: .*"missing_required"/,
  ],
  [
    'truncated with an unknown cut point',
    '{ kind: truncated, keep: 3, at: middle }',
    undefined,
    /faults\[0\]\.fault\.at: .*"tool_call"/,
  ],
  ['refusal with an empty message', "{ kind: refusal, message: '' }", undefined, /faults\[0\]\.fault\.message: /],
  [
    'error_in_200 with a number for its message',
    '{ kind: error_in_200, message: 7 }',
    undefined,
    /faults\[0\]\.fault\.message: /,
  ],
  [
    'replayed with a parameter it does not take',
    '{ kind: replayed, times: 2 }',
    undefined,
    /faults\[0\]\.fault: .*times/,
  ],
  [
    'a model mistake aimed at a tool',
    '{ kind: malformed_arguments }',
    '{ tool: create_order }',
    /faults\[0\]\.match\.tool: "create_order": "malformed_arguments" strikes only a model's answers/,
  ],
  [
    'stale on a model route',
    '{ kind: stale, lagMs: 100 }',
    undefined,
    /faults\[0\]\.fault\.kind: "stale" on model:openai\.chat\.completions: .*use `kind: replayed`/,
  ],
].map(([cls, fault, match, stderr]) => ({
  cls: `model mistakes: ${cls as string}`,
  files: {
    'over-http.yaml': mistakeScenario(fault as string, match as string | undefined),
    'agent.ts': HTTP_AGENT(''),
  },
  args: ['run', 'over-http.yaml', '--k', '1'],
  code: 2,
  stderr: stderr as RegExp,
}));
modelMistakeInput.push({
  cls: 'model mistakes: a model mistake in a scenario that serves no model',
  files: { 'over-http.yaml': mistakeScenario('{ kind: refusal }', '{ call: 1 }', false), 'agent.ts': HTTP_AGENT('') },
  args: ['run', 'over-http.yaml', '--k', '1'],
  code: 2,
  stderr: /faults\[0\]\.fault\.kind: "refusal" is a model's own mistake, and this scenario serves no model/,
});

// Waits past Node's longest timer (2^31 - 1 ms), drawn once (issue 43 #37, #38): a command agent's timeoutMs
// is armed in pieces, not fired at once (a TimeoutOverflowWarning, the trial judged hung); a uniform arrival
// window past 2^53 - 1 ms, whose draw never ended, is refused at load.
const hugeTimeouts = fc.sample(fc.integer({ min: 2 ** 31, max: Number.MAX_SAFE_INTEGER }), { numRuns: 3, seed: 43 });
const hugeWindows = fc.sample(fc.double({ min: Number.MAX_SAFE_INTEGER + 2, max: 1e308, noNaN: true }), {
  numRuns: 2,
  seed: 43,
});
const hugeWaits: Case[] = [
  ...hugeTimeouts.map((ms): Case => ({
    cls: `huge waits: a command agent with timeoutMs ${ms}`,
    files: {
      'long.yaml': `name: long\nagent:\n  kind: command\n  task: Wait a little\n  argv: [sh, -c, 'sleep 0.1']\n  timeoutMs: ${ms}\n`,
    },
    args: ['run', 'long.yaml', '--k', '1'],
    code: 0,
    stdout: /✓ long +1\.000 /,
    also: (r) => expect(r.stdout + r.stderr).not.toMatch(/TimeoutOverflowWarning|timed out|hung/),
  })),
  ...hugeWindows.map((overMs): Case => ({
    cls: `huge waits: arrival uniform over ${overMs} ms`,
    files: { 'crowd.yaml': SCENARIO('crowd', `agents: 2\narrival: { kind: uniform, overMs: ${overMs} }\n`) },
    args: ['run', 'crowd.yaml', '--k', '1'],
    code: 2,
    stderr: /crowd\.yaml: .*\n.*arrival\.overMs: expected at most 9007199254740991 ms/,
  })),
];

fuzzSurfaces('new surfaces', [...crashes, ...misleading, ...lost, ...modelMistakeInput, ...hugeWaits]);
