import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { faultline, tempDir, type Finished } from './faultline.js';
import { inProcess } from './inProcess.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FILES = [
  'faultline.config.ts',
  'faultline/services/helpdesk.service.ts',
  'faultline/agents/open-ticket.agent.ts',
  'faultline/scenarios/helpdesk-partial-write.scenario.ts',
  '.github/workflows/faultline.yml',
];

// A fresh project folder per case, all removed at the end: the cases in process share this process, and
// esbuild (tsx's compiler, loaded by the first .ts the CLI imports) restarts its service in the working
// directory it was loaded in, so that folder must outlive the case.
let root: Awaited<ReturnType<typeof tempDir>>;
let dir: { readonly path: string };
beforeAll(async () => {
  root = await tempDir('init');
});
afterAll(() => root.cleanup());
beforeEach(async () => {
  dir = { path: await mkdtemp(join(root.path, 'case-')) };
  // `faultline` resolves as in a user's project: to the built package, through its exports.
  await mkdir(join(dir.path, 'node_modules'));
  await symlink(REPO, join(dir.path, 'node_modules', 'faultline'), 'dir');
});

// The first case's init and run go through the binary (end to end), its trials on workers; the rest run in
// process, through the entry the binary calls (./inProcess.ts), their runs with `--workers 0`: what they claim
// is the verdict, which the isolation does not change, and a run on workers would start a worker's host
// process and load tsx and the example's modules in it again.
const cli = (args: readonly string[]): Promise<Finished> => inProcess(args, { cwd: dir.path });
const read = (path: string): Promise<string> => readFile(join(dir.path, path), 'utf8');

describe('faultline init', () => {
  it('writes a working example: run passes under rulebook and fails with the evidence under naive', async () => {
    await writeFile(join(dir.path, 'package.json'), '{\n    "name": "shop",\n    "scripts": { "test": "vitest" }\n}\n');
    const init = await faultline(['init'], { cwd: dir.path });
    expect(init.code).toBe(0);
    for (const f of FILES) expect(init.stdout).toMatch(new RegExp(`created +${f.replaceAll('.', '\\.')}\\n`));
    expect(init.stdout).toContain('added    package.json script "faultline": "faultline run"');
    // The user's package.json keeps its content and its four-space indentation.
    expect(await read('package.json')).toBe(
      '{\n    "name": "shop",\n    "scripts": {\n        "test": "vitest",\n        "faultline": "faultline run"\n    }\n}\n',
    );

    const run = await faultline(['run'], { cwd: dir.path });
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /✓ helpdesk-partial-write +1\.000 \[0\.40, 1\.00\] +1\.000 \[0\.02, 1\.00\] +1\.000 \[0\.87, 1\.00\] +4\/4/,
    );
    expect(run.stdout).toContain('reports: reports/faultline/faultline.json');

    const naive = await cli(['run', '--config', 'naive', '--workers', '0']);
    expect(naive.code).toBe(1);
    expect(naive.stdout).toContain('ticket.created happened 2 times, expected 1');
    expect(naive.stdout).toContain(
      'replay: faultline replay faultline/scenarios/helpdesk-partial-write.scenario.ts --config naive --seed 1 --trial 0',
    );
    // Three CLI processes, each loading TypeScript through tsx: on a busy machine (a load of 14 per core here) that takes minutes.
  });

  it('is safe to run twice: it never overwrites, and says what it skipped', async () => {
    await writeFile(join(dir.path, 'package.json'), '{ "name": "shop" }\n');
    expect((await cli(['init'])).code).toBe(0);
    await writeFile(join(dir.path, 'faultline.config.ts'), '// mine\nexport default {};\n');
    const pkg = await read('package.json');

    const again = await cli(['init']);
    expect(again.code).toBe(0);
    for (const f of FILES) expect(again.stdout).toContain(`skipped  ${f} (it exists)`);
    expect(again.stdout).toContain(
      'skipped  package.json script "faultline": "faultline run" (package.json already has a "faultline" script)',
    );
    expect(again.stdout).toContain('6 skipped: nothing was overwritten');
    expect(await read('faultline.config.ts')).toBe('// mine\nexport default {};\n');
    expect(await read('package.json')).toBe(pkg);
  });

  it('without a package.json, writes the files and says why the script was skipped', async () => {
    const init = await cli(['init']);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(
      'skipped  package.json script "faultline": "faultline run" (there is no package.json here',
    );
    expect(await read('.github/workflows/faultline.yml')).toContain('run: npm run faultline');
  });

  it("in a CommonJS package, the user's .ts files get the runner's own faultline, not a second copy compiled by tsx", async () => {
    // A package without "type": "module" (what `npm init` writes): its .ts files are CommonJS, and each
    // import of 'faultline' in them is a require. tsx compiled all of faultline again for it (about 0.4 s of
    // CPU per process), so the agent's defineAgent was not the one `import()` gives, which is the runner's.
    await writeFile(join(dir.path, 'package.json'), '{ "name": "shop" }\n');
    expect((await cli(['init'])).code).toBe(0);
    const agent = 'faultline/agents/open-ticket.agent.ts';
    const text = await read(agent);
    const start = 'export default defineAgent(async ({ tools }) => {\n';
    expect(text).toContain(start);
    await writeFile(
      join(dir.path, agent),
      text.replace(
        start,
        `${start}  if ((await import('faultline')).defineAgent !== defineAgent) return { outcome: 'failed', claims: [] };\n`,
      ),
    );
    // On a worker (the user's code always is), whose loader registers tsx as the CLI's does.
    const run = await cli(['run']);
    expect(run.stdout).toMatch(/✓ helpdesk-partial-write +1\.000 .* 4\/4 /);
    expect(run.code).toBe(0);
    // And in the CLI's own thread (./inProcess.ts registers tsx for it as the CLI does).
    const here = await cli(['run', '--workers', '0']);
    expect(here.stdout).toMatch(/✓ helpdesk-partial-write +1\.000 .* 4\/4 /);
    expect(here.code).toBe(0);
  });
});

describe('faultline init --example', () => {
  /** The user's own dependencies an example imports, linked from the checkout's node_modules. */
  const link = async (...names: string[]): Promise<void> => {
    for (const name of names) {
      await mkdir(join(dir.path, 'node_modules', name, '..'), { recursive: true });
      await symlink(join(REPO, 'node_modules', name), join(dir.path, 'node_modules', name), 'dir');
    }
  };

  it('helpdesk: writes the worked example and a config that runs it, and run passes', async () => {
    await writeFile(join(dir.path, 'package.json'), '{ "name": "shop", "type": "module" }\n');
    const init = await cli(['init', '--example', 'helpdesk']);
    expect(init.code, init.stderr).toBe(0);
    for (const f of [
      'faultline.config.ts',
      'faultline/examples/helpdesk/ticket-over-http.yaml',
      'faultline/examples/helpdesk/ticket-partial-write.yaml',
      'faultline/examples/helpdesk/code/helpdesk.service.ts',
      'faultline/examples/helpdesk/code/agent.ts',
      'faultline/examples/helpdesk/code/openTicket.ts',
      '.github/workflows/faultline.yml',
    ]) {
      expect(init.stdout).toMatch(new RegExp(`created +${f.replaceAll('.', '\\.')}\\n`));
    }
    expect(await read('faultline/examples/helpdesk/code/helpdesk.service.ts')).toBe(
      await readFile(join(REPO, 'scenarios/examples/helpdesk/code/helpdesk.service.ts'), 'utf8'),
    );
    expect(await read('faultline.config.ts')).toContain("scenarios: ['faultline/examples/helpdesk/*.yaml']");
    expect(init.stdout).toMatch(/needs: npm i -D -E msw@\d+\.\d+\.\d+\n/);
    // No starter files beside the example.
    expect(init.stdout).not.toContain('faultline/scenarios/');

    const run = await cli(['run', '--workers', '0']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/✓ helpdesk-ticket-over-http +1\.000/);
    expect(run.stdout).toMatch(/✓ helpdesk-ticket-partial-write +1\.000/);
    expect(run.stdout).toContain('gates: all 4 held');
  });

  it('never overwrites: a second init lists every file as skipped and names the example folder to run', async () => {
    expect((await cli(['init', '--example', 'helpdesk'])).code).toBe(0);
    await writeFile(join(dir.path, 'faultline/examples/helpdesk/code/agent.ts'), '// mine\n');
    const again = await cli(['init', '--example', 'helpdesk']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('skipped  faultline/examples/helpdesk/code/agent.ts (it exists)');
    expect(again.stdout).toContain('skipped  faultline.config.ts (it exists)');
    expect(again.stdout).not.toContain('created');
    expect(again.stdout).toContain('nothing was overwritten');
    expect(again.stdout).toContain('next: npx faultline run faultline/examples/helpdesk ');
    expect(await read('faultline/examples/helpdesk/code/agent.ts')).toBe('// mine\n');
  });

  it('refuses an unknown example with exit 2, naming the ones there are, and writes nothing', async () => {
    const r = await cli(['init', '--example', 'helpdesks']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '--example "helpdesks": no such example; expected one of helpdesk, sdk-agents, local-commands',
    );
    expect(r.stdout).toBe('');
    await expect(read('faultline.config.ts')).rejects.toThrow(/ENOENT/);
  });

  it('sdk-agents: one config of under 30 lines and one copy of the scenario; run labels every cell by its agent, on the real SDKs', async () => {
    await link('openai', 'ai', '@ai-sdk/openai', '@openai/agents', '@anthropic-ai/sdk');
    const init = await cli(['init', '--example', 'sdk-agents']);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/created +faultline\.config\.ts\n/);
    expect(init.stdout).toMatch(/created +faultline\/examples\/helpdesk\/code\/openTicket\.ts\n/);
    expect(init.stdout).toMatch(/created +faultline\/examples\/sdk-agents\/code\/openaiAgent\.ts\n/);
    expect(init.stdout).toMatch(/created +faultline\/examples\/sdk-agents\/ticket-partial-write\.yaml\n/);
    // The example's config is the project's: not a second copy in the example's folder.
    expect(init.stdout).not.toContain('faultline/examples/sdk-agents/faultline.config.ts');
    expect(init.stdout).not.toContain('faultline/examples/helpdesk/ticket-');
    expect(init.stdout).toMatch(
      /needs: npm i -D -E msw@[\d.]+ openai@[\d.]+ ai@[\d.]+ @ai-sdk\/openai@[\d.]+ @openai\/agents@[\d.]+ @anthropic-ai\/sdk@[\d.]+\n/,
    );
    expect(init.stdout).toContain(
      'next: npx faultline run   (each scenario once per agent of the config, every cell labelled by its agent)',
    );
    const config = await read('faultline.config.ts');
    expect(config.trimEnd().split('\n').length).toBeLessThan(30);
    expect(config).toContain('agents: [');
    // One copy of the scenario, whatever the number of agents: no agent module, no services in it.
    const scenario = await read('faultline/examples/sdk-agents/ticket-partial-write.yaml');
    expect(scenario).not.toMatch(/module:|services:/);

    const run = await cli(['run', '--reporter', 'console', '--reporter', 'json', '--workers', '0']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    for (const agent of ['openai', 'ai-sdk', 'agents-sdk'])
      expect(run.stderr).toContain(`✓ ${agent} × sdk-helpdesk-partial-write: 4/4 passed`);
    expect(run.stderr).toContain('✓ rulebook × sdk-helpdesk-partial-write-anthropic: 4/4 passed');
    const report = JSON.parse(await read('reports/faultline/faultline.json')) as {
      cells: { scenario: string; config: string; refs: { agent?: string }; status: string }[];
    };
    expect(report.cells.map((c) => `${c.scenario} ${c.config} ${c.refs.agent ?? '-'} ${c.status}`).sort()).toEqual([
      'sdk-helpdesk-partial-write agents-sdk agents-sdk passed',
      'sdk-helpdesk-partial-write ai-sdk ai-sdk passed',
      'sdk-helpdesk-partial-write openai openai passed',
      'sdk-helpdesk-partial-write-anthropic rulebook - passed',
    ]);
    // A project that has a config keeps it: the example's goes beside it, and init says how to run it.
    const again = await cli(['init', '--example', 'sdk-agents']);
    expect(again.stdout).toMatch(/created +faultline\.sdk-agents\.config\.ts\n/);
    expect(again.stdout).toContain('next: npx faultline run --config-file faultline.sdk-agents.config.ts');
  });

  it('local-commands: run fails exactly the two scenarios that fail on purpose, each by its checker', async () => {
    expect((await cli(['init', '--example', 'local-commands'])).code).toBe(0);
    const run = await cli(['run', '--workers', '0']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('✗ build-leaks-grandchild × rulebook: 4 of 4 trials failed (process-cleanup)');
    expect(run.stdout).toContain('✗ task-lost-track-unknown-as-success × rulebook: 4 of 4 trials failed (goal-state)');
    expect(run.stdout).toMatch(/✓ build-times-out +1\.000/);
    expect(run.stdout).toMatch(/✓ task-lost-track-careful +1\.000/);
  });
});
