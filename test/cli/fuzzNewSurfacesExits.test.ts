import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';
import { ticketsScenario, ticketsService } from './ticketsService.js';
import { CONFIG, fuzzSurfaces, HTTP_AGENT, httpScenario, SCENARIO, type Case } from './surfaceCases.js';

/**
 * Bad input on the surfaces added since the first fuzzing (issue 22), the part that ends a
 * process or never settles: modules (a config file, a service, an agent, a scenario) that call
 * process.exit at import, throw, or never finish loading, and runs that would never end. Split
 * from fuzzNewSurfaces.test.ts, which took 27 to 30 s alone; how each case runs and what it must
 * end as: ./surfaceCases.ts. In a fork of its own, as that file is (vitest.config.ts).
 */

const exitCodes = fc.sample(fc.integer({ min: 0, max: 9 }), { numRuns: 4, seed: 22 });

const silent: Case[] = [
  // The first drawn code through the binary, where process.exit is the real one; the others in process.
  ...exitCodes.flatMap((n, i): Case[] => [
    {
      cls: `process.exit(${n}) at import of faultline.config.ts`,
      ...(i === 0 && { binary: 'a module calls process.exit' }),
      files: { 'faultline.config.ts': `process.exit(${n});\nexport default {};\n`, 's.yaml': SCENARIO('s') },
      args: ['run', 's.yaml', '--k', '1'],
      code: 2,
      stderr: new RegExp(`faultline\\.config\\.ts: the module called process\\.exit\\(${n}\\) while loading`),
    },
    {
      cls: `process.exit(${n}) at import of a service module`,
      ...(i === 0 && { binary: 'a module calls process.exit' }),
      files: { 'tickets.service.ts': `process.exit(${n});\n${ticketsService('')}`, 's.yaml': ticketsScenario() },
      args: ['run', 's.yaml', '--k', '1'],
      code: 2,
      stderr: new RegExp(
        `s\\.yaml: services\\[0\\] \\(\\./tickets\\.service\\.ts\\): the module called process\\.exit\\(${n}\\) while loading`,
      ),
    },
    {
      cls: `process.exit(${n}) at import of an agent module`,
      ...(i === 0 && { binary: 'a module calls process.exit' }),
      files: { 'over-http.yaml': httpScenario(), 'agent.ts': `process.exit(${n});\n${HTTP_AGENT('')}` },
      args: ['run', 'over-http.yaml', '--k', '1'],
      code: 2,
      stderr: new RegExp(
        `over-http\\.yaml: agent\\.module \\(\\./agent\\.ts\\): the module called process\\.exit\\(${n}\\) while loading`,
      ),
    },
    {
      cls: `process.exit(${n}) at import of a .ts scenario`,
      ...(i === 0 && { binary: 'a module calls process.exit' }),
      files: { 's.scenario.ts': `process.exit(${n});\nexport default {};\n` },
      args: ['run', 's.scenario.ts', '--k', '1'],
      code: 2,
      stderr: new RegExp(`s\\.scenario\\.ts: the module called process\\.exit\\(${n}\\) while loading`),
    },
  ]),
  {
    cls: 'defineService: an http route to an unknown tool',
    files: {
      'tickets.service.ts': ticketsService(
        `http: { baseUrl: 'https://tickets.example.test', routes: [{ method: 'POST', path: '/t', tool: 'close_ticket' }] },`,
      ),
      's.yaml': ticketsScenario(),
    },
    args: ['run', 's.yaml', '--k', '1'],
    code: 2,
    stderr: /http\.routes\[0\]\.tool: no tool "close_ticket" in this service/,
  },
  {
    cls: 'defineService: http method FETCH',
    files: {
      'tickets.service.ts': ticketsService(
        `http: { baseUrl: 'https://tickets.example.test', routes: [{ method: 'FETCH' as 'GET', path: '/t', tool: 'open_ticket' }] },`,
      ),
      's.yaml': ticketsScenario(),
    },
    args: ['run', 's.yaml', '--k', '1'],
    code: 2,
    stderr: /http\.routes\[0\]\.method: .*"FETCH"/,
  },
  {
    cls: "defineService: baseUrl 'not a url'",
    files: {
      'tickets.service.ts': ticketsService(
        `http: { baseUrl: 'not a url', routes: [{ method: 'POST', path: '/t', tool: 'open_ticket' }] },`,
      ),
      's.yaml': ticketsScenario(),
    },
    args: ['run', 's.yaml', '--k', '1'],
    code: 2,
    stderr: /http\.baseUrl: expected an absolute http\(s\) URL .*got "not a url"/,
  },
  {
    cls: 'defineService: a tool named query_operation_status',
    files: {
      'tickets.service.ts': ticketsService('').replace(
        'open_ticket: {',
        "query_operation_status: { description: 'mine', risk: 'read', input: z.object({}), run: () => 1 },\n    open_ticket: {",
      ),
      's.yaml': ticketsScenario(),
    },
    args: ['run', 's.yaml', '--k', '1'],
    code: 2,
    stderr: /tools\.query_operation_status: the name is reserved/,
  },
  {
    // Issue 43: an unreadable --cassette ran the trial and judged the agent `crashed`, exit 1.
    cls: 'replay --cassette of an unreadable file',
    files: {
      'over-http.yaml': httpScenario(undefined, 'model: { api: openai }\n'),
      'agent.ts': HTTP_AGENT(''),
      'locked.json': '{}',
    },
    args: ['replay', 'over-http.yaml', '--cassette', 'locked.json'],
    asUser: true,
    binary: 'runs as another user',
    code: 2,
    stderr: /--cassette \S*locked\.json: cannot read the cassette \(EACCES\)/,
  },
  {
    cls: 'cassette with a duplicate "api" key',
    files: {
      'over-http.yaml': httpScenario(undefined, 'model: { api: openai, cassette: ./dup.cassette.json }\n'),
      'agent.ts': HTTP_AGENT(''),
      'dup.cassette.json': '{"faultline":"cassette","version":1,"api":"anthropic","api":"openai","entries":[]}',
    },
    args: ['run', 'over-http.yaml', '--k', '1'],
    code: 2,
    stderr: /dup\.cassette\.json:1:\d+: \(root\): the key "api" appears twice/,
  },
  {
    cls: 'mcp-proxy -- false: the server exits at once',
    binary: "mcp-proxy proxies the process's own stdin and stdout",
    files: { 'plan.yaml': '[]\n' },
    args: ['mcp-proxy', '--plan', 'plan.yaml', '--', 'false'],
    code: 2,
    stderr: /the MCP server "false" exited with code 1 before the client closed/,
  },
  {
    cls: 'mcp-serve: an unknown scenario',
    files: {},
    args: ['mcp-serve', 'no-such.yaml'],
    code: 2,
    stderr: /no scenario file or built-in scenario named "no-such\.yaml"/,
  },
  {
    cls: 'mcp-serve: a scenario with no tools (services: [])',
    files: { 'empty.yaml': 'name: empty\nservices: []\nagent:\n  kind: command\n  argv: [true]\n' },
    args: ['mcp-serve', 'empty.yaml'],
    code: 2,
    stderr: /empty\.yaml: invalid scenario "empty":\n\s+- services: .*>=1 items/,
  },
  {
    cls: 'mcp-serve: a folder of several scenarios',
    files: { 'many/a.yaml': SCENARIO('a'), 'many/b.yaml': SCENARIO('b') },
    args: ['mcp-serve', 'many'],
    code: 2,
    stderr: /mcp-serve takes one scenario; "many" holds 2 \(a, b\)/,
  },
  {
    cls: 'mcp-serve --trials 0',
    files: { 's.yaml': SCENARIO('s') },
    args: ['mcp-serve', 's.yaml', '--trials', '0'],
    code: 2,
    stderr: /--trials <n>' argument '0' is invalid\. expected a positive integer/,
  },
  {
    cls: 'mcp-serve --seed random',
    files: { 's.yaml': SCENARIO('s') },
    args: ['mcp-serve', 's.yaml', '--seed', 'random'],
    code: 2,
    stderr: /mcp-serve needs a seed \(--seed <n>\), not "random"/,
  },
  {
    cls: 'mcp-serve --report onto a folder',
    files: { 's.yaml': SCENARIO('s'), 'afolder/x': 'x' },
    args: ['mcp-serve', 's.yaml', '--report', 'afolder'],
    code: 2,
    stderr: /--report afolder: expected a file, but it is a folder/,
  },
  {
    cls: 'mcp-serve --no-such-flag',
    files: { 's.yaml': SCENARIO('s') },
    args: ['mcp-serve', 's.yaml', '--no-such-flag'],
    code: 2,
    stderr: /unknown option '--no-such-flag'/,
  },
  {
    cls: "init --dir ''",
    files: {},
    args: ['init', '--dir', ''],
    code: 2,
    stderr: /--dir: expected a folder path, got an empty string/,
    also: async (_r, dir) =>
      expect(await readFile(join(dir, 'faultline.config.ts'), 'utf8').catch(() => 'absent')).toBe('absent'),
  },
  {
    cls: 'the same tool name in two services',
    files: {
      'tickets.service.ts': ticketsService(''),
      'desk.service.ts': ticketsService('').replace("name: 'tickets'", "name: 'desk'"),
      's.yaml': ticketsScenario().replace('[./tickets.service.ts]', '[./tickets.service.ts, ./desk.service.ts]'),
    },
    args: ['run', 's.yaml', '--k', '1'],
    code: 2,
    stderr:
      /s\.yaml: invalid scenario "tickets":\n\s+- services: the tool "open_ticket" is declared by both "tickets" and "desk"/,
  },
  {
    cls: 'businessKey that is not an input field',
    files: {
      'tickets.service.ts': ticketsService('').replace("risk: 'write',", "risk: 'write', businessKey: 'orderId',"),
      's.yaml': ticketsScenario(),
    },
    args: ['run', 's.yaml', '--k', '1'],
    code: 2,
    stderr: /tools\.open_ticket\.businessKey: "orderId" is not a field of the tool's input \(requestId\)/,
  },
  {
    cls: 'goal.state naming a service the world lacks',
    files: { 's.yaml': SCENARIO('s', 'goal:\n  state: { helpdesk: { t-1: { status: open } } }\n') },
    args: ['run', 's.yaml', '--k', '1'],
    code: 2,
    stderr:
      /s\.yaml: invalid scenario "s":\n\s+- goal\.state\.helpdesk: no service "helpdesk" in this scenario's world/,
  },
];

const hangs: Case[] = [
  {
    cls: '--k 1000000000',
    files: { 's.yaml': SCENARIO('s') },
    args: ['run', 's.yaml', '--k', '1000000000'],
    code: 2,
    stderr: /--k.*at most 100000/,
  },
  {
    cls: 'k: 1e9 in the config file',
    files: { 'faultline.config.ts': CONFIG('{ k: 1e9 }'), 's.yaml': SCENARIO('s') },
    args: ['run', 's.yaml'],
    code: 2,
    stderr: /faultline\.config\.ts: invalid faultline config:\n\s+- k: .*at most 100000/,
  },
  {
    cls: '.ts scenario that starts a setInterval at import',
    binary: 'the module leaves a timer in the process',
    files: { 's.scenario.ts': 'setInterval(() => {}, 1000);\nexport default {};\n' },
    args: ['run', 's.scenario.ts', '--k', '1'],
    code: 2,
    stderr: /s\.scenario\.ts: invalid scenario/,
  },
  {
    cls: 'config file whose default export never settles',
    binary: 'the CLI sees the event loop run empty',
    files: { 'faultline.config.ts': 'export default await new Promise(() => {});\n', 's.yaml': SCENARIO('s') },
    args: ['run', 's.yaml', '--k', '1'],
    code: 2,
    stderr: /faultline\.config\.ts: the module never finished loading/,
  },
  {
    cls: 'config file whose default export settles only on a timer that never fires',
    binary: 'the module leaves a timer in the process',
    files: {
      'faultline.config.ts': 'export default await new Promise(() => { setInterval(() => {}, 1000); });\n',
      's.yaml': SCENARIO('s'),
    },
    args: ['run', 's.yaml', '--k', '1'],
    code: 2,
    env: { FAULTLINE_LOAD_TIMEOUT_MS: '2000' },
    stderr: /faultline\.config\.ts: the module did not finish loading within 2 s/,
  },
];

fuzzSurfaces('new surfaces: exits and hangs', [...silent, ...hangs]);
