/**
 * Bad `defaults` and `agents` in faultline.config.ts, and `--agent` naming no agent, on every
 * command that reads them (run, compare, explore, sweep, list, replay, serve): each is refused
 * with exit 2 before anything runs, the message naming the file, the path in it and what was
 * expected, and the same on every command (one function reads the file for all of them).
 * The cases are drawn by fast-check: a bad value at a drawn path, each run on a drawn command
 * (the fixed classes each run once, on commands drawn so that every command meets one).
 * The first case runs the real binary (end to end); the others run the CLI's entry in this
 * process (./inProcess.ts), the same compiled code, each in a folder of its own (Node caches an
 * imported config module by its path for the life of the process).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';
import { userProject } from './userProject.js';

interface Case {
  readonly cls: string;
  /** The `defineConfig({ … })` argument, as source. */
  readonly config: string;
  /** What stderr must say: the file, the path in it, what was expected. */
  readonly says: RegExp;
  readonly agent?: string;
}

const SCENARIO = 'name: s\nagent: { task: Open a ticket }\ngoal: { outcome: [completed] }\n';
const SCRIPTED = "{ name: 'scripted', kind: 'scripted' }";

const wrongTypes: Case[] = [
  {
    cls: 'defaults is a number',
    config: '{ defaults: 5 }',
    says: /faultline\.config\.ts: invalid faultline config:\n\s+- defaults: Invalid input: expected object, received number/,
  },
  {
    cls: 'defaults.budget of the wrong type',
    config: "{ defaults: { budget: { maxAttemptsPerCall: 'four' } } }",
    says: /faultline\.config\.ts: invalid faultline config:\n\s+- defaults\.budget\.maxAttemptsPerCall: Invalid input: expected number, received string/,
  },
  {
    cls: 'defaults.services an empty list',
    config: '{ defaults: { services: [] } }',
    says: /faultline\.config\.ts: invalid faultline config:\n\s+- defaults\.services: .*(>=1|at least)/,
  },
  {
    cls: 'agents is an object',
    config: '{ agents: {} }',
    says: /faultline\.config\.ts: invalid faultline config:\n\s+- agents: Invalid input: expected array, received object/,
  },
  {
    cls: 'agents is empty',
    config: '{ agents: [] }',
    says: /faultline\.config\.ts: invalid faultline config:\n\s+- agents: list at least one agent, or leave the key out/,
  },
  {
    cls: 'an agent name with spaces',
    config: "{ agents: [{ name: 'Open AI', kind: 'scripted' }] }",
    says: /faultline\.config\.ts: invalid faultline config:\n\s+- agents\[0\]\.name: expected a short lowercase name/,
  },
];

const unknownKeys: Case[] = [
  {
    cls: 'an unknown key in defaults',
    config: '{ defaults: { servicez: [] } }',
    says: /faultline\.config\.ts: invalid faultline config:\n\s+- defaults: Unrecognized key: "servicez"/,
  },
  {
    cls: 'an unknown key in an agent',
    config: "{ agents: [{ name: 'a', kind: 'scripted', extra: 1 }] }",
    says: /faultline\.config\.ts: invalid faultline config:\n\s+- agents\[0\]: Unrecognized key: "extra"/,
  },
];

const modules: Case[] = [
  {
    cls: 'an agent module that does not exist',
    config: "{ agents: [{ name: 'a', module: './nope.ts' }] }",
    says: /faultline\.config\.ts: agents\[0\]\.module \(\.\/nope\.ts\): no such file \(expected a module to import\)/,
  },
  {
    cls: 'an agent module that imports a package that is not installed',
    config: "{ agents: [{ name: 'a', module: './bad-import.mjs' }] }",
    says: /faultline\.config\.ts: agents\[0\]\.module \(\.\/bad-import\.mjs\): the module failed to load: Cannot find package 'no-such-package-here' imported from \S*bad-import\.mjs/,
  },
  {
    cls: 'a default agent module that does not exist',
    config: "{ defaults: { agent: { kind: 'http', module: './nope.ts' } } }",
    says: /faultline\.config\.ts: defaults\.agent\.module \(\.\/nope\.ts\): no such file/,
  },
  {
    cls: 'a default service module that does not exist',
    config: "{ defaults: { services: ['./missing.service.ts'] } }",
    says: /faultline\.config\.ts: defaults\.services\[0\] \(\.\/missing\.service\.ts\): no such file/,
  },
];

// Two agents of one name, at a drawn position: the second is named, with why it matters.
const duplicates = fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), fc.nat(2)).map(([name, before]): Case => {
  const others = Array.from({ length: before }, (_, i) => `{ name: 'x${i}-${name}', kind: 'scripted' }`);
  return {
    cls: `agent "${name}" twice after ${before} others`,
    config: `{ agents: [${[...others, `{ name: '${name}', kind: 'scripted' }`, `{ name: '${name}', kind: 'scripted' }`].join(', ')}] }`,
    says: new RegExp(
      `faultline\\.config\\.ts: invalid faultline config:\\n\\s+- agents\\[${before + 1}\\]\\.name: "${name}" names two agents; expected each name once`,
    ),
  };
});

// --agent naming an agent the file does not list.
const unknownAgent = fc
  .stringMatching(/^[a-z][a-z0-9-]{0,8}$/)
  .filter((n) => n !== 'scripted')
  .map((name): Case => ({
    cls: `--agent ${name}`,
    config: `{ agents: [${SCRIPTED}] }`,
    agent: name,
    says: new RegExp(`--agent ${name}: no such agent in faultline\\.config\\.ts \\(agents: scripted\\)`),
  }));

// Every command that reads the config's defaults and agents, with arguments that would otherwise run.
const COMMANDS: Record<string, readonly string[]> = {
  run: ['run', 's.yaml', '--k', '1'],
  compare: ['compare', 's.yaml', '--k', '1'],
  explore: ['explore', 's.yaml', '--runs', '1'],
  sweep: ['sweep', 's.yaml', '--k', '1', '--lambda', '0'],
  list: ['list'],
  replay: ['replay', 's.yaml', '--trial', '0'],
  serve: ['serve', 's.yaml', '--trials', '1'],
};
// Commands with an --agent flag.
const PICKING = ['run', 'compare', 'explore', 'sweep', 'list', 'replay'];

const BAD_IMPORT = "import 'no-such-package-here';\nexport default {};\n";

// The project's node_modules holds this checkout as `faultline`, for the case folders inside it.
let project: Awaited<ReturnType<typeof userProject>>;
beforeAll(async () => {
  project = await userProject('fuzz-project-config', {});
});
afterAll(() => project.cleanup());

let refusals = 0;
async function refused(c: Case, command: string): Promise<void> {
  const cwd = join(project.path, `case-${++refusals}`);
  await mkdir(cwd);
  await writeFile(join(cwd, 's.yaml'), SCENARIO);
  await writeFile(join(cwd, 'bad-import.mjs'), BAD_IMPORT);
  await writeFile(
    join(cwd, 'faultline.config.ts'),
    `import { defineConfig } from 'faultline';\nexport default defineConfig(${c.config});\n`,
  );
  const args = [...COMMANDS[command]!, ...(c.agent !== undefined ? ['--agent', c.agent] : [])];
  const r = refusals === 1 ? await faultline(args, { cwd }) : await inProcess(args, { cwd });
  expect(r.code, `${c.cls} on ${command}: ${r.stderr}${r.stdout}`).toBe(2);
  expect(r.stderr, `${c.cls} on ${command}`).toMatch(c.says);
  // Refused before anything ran: no trial, no stack.
  expect(r.stderr).not.toMatch(/\n\s+at /);
  // Names the user's files, never faultline's own (Node's "imported from …/dist/scenario/loadFile.js").
  expect(r.stderr, `${c.cls} on ${command}`).not.toMatch(/dist\/(runner|cli|core)\//);
}

describe('bad defaults and agents in faultline.config.ts are refused (exit 2) by every command that reads them', () => {
  it('wrong types, unknown keys and modules that do not exist, each on a drawn command', async () => {
    const cases = [...wrongTypes, ...unknownKeys, ...modules];
    const commands = Object.keys(COMMANDS);
    // Every case once, and every command at least once (12 cases, 7 commands): fast-check draws
    // where the commands start and walk, so which case meets which command is drawn, and a
    // failure shrinks to the first case that is not refused. Each case is one CLI run (one
    // tsx-loaded config, ~3 s of CPU): a free draw of cases would mostly repeat cases already run.
    expect(cases.length).toBeGreaterThanOrEqual(commands.length);
    const walk = fc.tuple(fc.nat(commands.length - 1), fc.constantFrom(1, 2, 3, 4, 5, 6));
    await fc.assert(
      fc.asyncProperty(walk, async ([start, step]) => {
        for (const [i, c] of cases.entries()) await refused(c, commands[(start + i * step) % commands.length]!);
      }),
      { numRuns: 1, seed: 27 },
    );
  });

  it('duplicate agent names, and --agent naming no agent of the file', async () => {
    await fc.assert(
      fc.asyncProperty(duplicates, fc.constantFrom(...Object.keys(COMMANDS)), (c, command) => refused(c, command)),
      { numRuns: 4, seed: 27 },
    );
    await fc.assert(
      fc.asyncProperty(unknownAgent, fc.constantFrom(...PICKING), (c, command) => refused(c, command)),
      { numRuns: 4, seed: 27 },
    );
  });
});

describe('messages that name the config file and its key, not a scenario or a flag (in process)', () => {
  let here: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    here = await tempDir('project-config-messages');
    await writeFile(join(here.path, 's.yaml'), SCENARIO);
  });
  afterAll(() => here.cleanup());

  let cases = 0;
  const refusedInProcess = async (config: string, command: readonly string[], says: RegExp): Promise<void> => {
    // A folder per case: Node caches an imported module by its path for the life of the process.
    const folder = join(here.path, `case-${++cases}`);
    await mkdir(folder);
    await writeFile(join(folder, 's.yaml'), SCENARIO);
    await writeFile(
      join(folder, 'scripted.yaml'),
      'name: s\nagent:\n  kind: scripted\n  task: Create order ref-1\n  plan:\n    steps:\n      - tool: create_order\n        input: { clientReference: ref-1, item: book, quantity: 1, amountCents: 1500 }\n',
    );
    const file = join(folder, 'faultline.config.mjs');
    await writeFile(file, `export default ${config};\n`);
    const r = await inProcess([...command, '--config-file', file], { cwd: here.path });
    expect(r.code, `${config}: ${r.stderr}${r.stdout}`).toBe(2);
    expect(r.stderr, config).toMatch(says);
    expect(r.stderr, config).not.toMatch(/scenarios\[\d+\]|\bs\.yaml|--grep/);
  };

  it('an agent of a drawn kind without its required field is told about that field, not that its kind should be "http"', async () => {
    // Each kind and the field it cannot do without.
    const kinds = fc.constantFrom(['command', 'argv'], ['function', 'fn']);
    const where = fc.constantFrom('defaults.agent', 'agents[0]');
    await fc.assert(
      fc.asyncProperty(
        kinds,
        where,
        fc.constantFrom<readonly string[]>(['list'], ['run', '--k', '1'], ['explore', '--runs', '1']),
        async ([kind, field], at, command) => {
          const agent = `{ ${at === 'agents[0]' ? "name: 'a', " : ''}kind: '${kind}' }`;
          const config =
            at === 'agents[0]'
              ? `{ scenarios: ['s.yaml'], agents: [${agent}] }`
              : `{ scenarios: ['s.yaml'], defaults: { agent: ${agent} } }`;
          await refusedInProcess(
            config,
            command,
            new RegExp(
              `faultline\\.config\\.mjs: invalid faultline config:\\n\\s+- ${at.replace(/[[\]]/g, '\\$&')}\\.${field}: `,
            ),
          );
        },
      ),
      { numRuns: 8, seed: 43 },
    );
  }, 120_000);

  it('a defaults.services name that is no built-in, and a config grep that matches nothing', async () => {
    await refusedInProcess(
      "{ scenarios: ['s.yaml'], defaults: { services: ['orders', 'nosuch'] } }",
      ['list'],
      /faultline\.config\.mjs: invalid faultline config:\n\s+- defaults\.services\[1\]: "nosuch" is not a built-in service \(orders, /,
    );
    await refusedInProcess(
      "{ scenarios: ['scripted.yaml'], grep: 'zzz', defaults: { services: ['orders'] } }",
      ['run', '--k', '1'],
      /faultline\.config\.mjs: grep zzz matches no scenario \(scenarios: s\)/,
    );
  }, 60_000);
});
