/**
 * The package from a user's side: one `npm pack` (prepack builds it from scratch; `packOnce`
 * shares it with the real agents' acceptance test while the sources are unchanged), one fresh
 * project outside the repository with the tarball installed from the npm cache, shared by
 * every test here, in order: first with no optional peer installed, then with vitest, msw and
 * nock added. Figures (file count, size, install-to-green time) come from `npm run bench:package`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsumer, packOnce, REPO, repoVersion, run, type Consumer, type Packed } from './consumer.js';

const SUBPATHS = ['faultline', 'faultline/report', 'faultline/runtime', 'faultline/testing', 'faultline/vitest', 'faultline/msw', 'faultline/nock', 'faultline/testcontainers'] as const;
/** The main entry's value exports fit on one screen: the rest belongs in a subpath. */
const MAIN_ENTRY_MAX = 25;
/** The peer each subpath cannot load without. */
const NEEDS: Partial<Record<(typeof SUBPATHS)[number], string>> = { 'faultline/vitest': 'vitest', 'faultline/msw': 'msw', 'faultline/nock': 'nock' };
const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
// Each step spawns npm, tsc or vitest on a machine that may be busy (a shared CI box can run at a load of 15 per core): generous limits, since nothing here is timed.
const SLOW = { timeout: 400_000 };
const fixture = (name: string): Promise<string> => readFile(join(REPO, 'test', 'package', 'fixtures', name), 'utf8');

let packed: Packed;
let project: Consumer;

/** Imports `specifier` in a plain `node` process in the project; its exports' names, or the error. */
async function importInNode(specifier: string): Promise<{ code: number; out: string }> {
  const script = `import(${JSON.stringify(specifier)}).then((m) => console.log(Object.keys(m).sort().join(',')), (e) => { console.log(e.code + ' ' + e.message); process.exit(1); })`;
  const r = await run(process.execPath, ['--input-type=module', '-e', script], project.dir);
  return { code: r.code, out: r.stdout + r.stderr };
}

const tsconfig = (extra: Record<string, unknown>): string =>
  JSON.stringify({
    compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2023', noEmit: true, skipLibCheck: false, types: ['node'], ...extra },
    files: ['consumer.ts'],
  });

beforeAll(async () => {
  packed = await packOnce();
  project = await createConsumer();
  await project.install([packed.tarball, `@types/node@${await repoVersion('@types/node')}`]);
}, 900_000);
afterAll(async () => {
  await project?.cleanup();
  await packed?.cleanup();
});

describe('the tarball', SLOW, () => {
  it('holds the built package, the library, the rules and the licence, and no tests or sources', () => {
    const files = packed.files;
    for (const f of ['package.json', 'README.md', 'LICENSE', 'docs/rules.md', 'docs/api.md', 'bin/faultline.js', 'scenarios/configs/rulebook.yaml', 'dist/cli/main.js']) expect(files).toContain(f);
    // The worked examples `init --example` writes travel with the package; the others stay in the repository.
    for (const f of ['scenarios/examples/helpdesk/ticket-over-http.yaml', 'scenarios/examples/helpdesk/code/helpdesk.service.ts', 'scenarios/examples/sdk-agents/code/openaiAgent.ts', 'scenarios/examples/local-commands/code/tasks.service.ts']) expect(files).toContain(f);
    expect(files.filter((f) => /^scenarios\/examples\/(served|rest-order-tool)\/|^scenarios\/examples\/README\.md$/.test(f))).toEqual([]);
    for (const s of ['index', 'report', 'runtime', 'testing', 'vitest', 'msw', 'nock', 'testcontainers']) expect(files).toEqual(expect.arrayContaining([`dist/public/${s}.js`, `dist/public/${s}.d.ts`]));
    // dist/public/testing.* is the `faultline/testing` entry; any other testing file is a test helper.
    const stray = files.filter((f) => /\.test\.|testkit|(?<!^dist\/public\/)testing|testService|\.tsbuildinfo$/.test(f) || /^(src|test|bench|scripts|\.ci)\//.test(f) || (f.startsWith('dist/') && !/\.(js|d\.ts)$/.test(f)));
    expect(stray).toEqual([]);
  });

  it('declares every export with types and import conditions into dist/, and a bin that runs compiled code', async () => {
    const pkg = JSON.parse(await readFile(join(project.dir, 'node_modules', 'faultline', 'package.json'), 'utf8')) as {
      exports: Record<string, string | { types: string; import: string }>;
      bin: Record<string, string>;
    };
    for (const [key, target] of Object.entries(pkg.exports)) {
      if (key === './package.json') continue;
      expect(target).toMatchObject({ types: expect.stringMatching(/^\.\/dist\/.+\.d\.ts$/), import: expect.stringMatching(/^\.\/dist\/.+\.js$/) });
    }
    expect(Object.keys(pkg.exports).sort()).toEqual(['.', './msw', './nock', './package.json', './report', './runtime', './testcontainers', './testing', './vitest']);
    const bin = await readFile(join(project.dir, 'node_modules', 'faultline', pkg.bin['faultline']!), 'utf8');
    expect(bin).toContain('../dist/cli/main.js');
    expect(bin).not.toContain('../src/');
    expect(bin).not.toMatch(/from ['"]tsx|import\(['"]tsx/);
  });
});

describe('installed with no optional peer', SLOW, () => {
  it('imports from plain node: the main entry, report, runtime, testing and testcontainers load, the others name the peer they need', async () => {
    for (const specifier of SUBPATHS) {
      const r = await importInNode(specifier);
      const peer = NEEDS[specifier];
      if (peer === undefined) {
        expect(r.code, r.out).toBe(0);
        expect(r.out.split(',').length).toBeGreaterThan(3);
      } else {
        expect(r.code).toBe(1);
        expect(r.out).toContain(`ERR_MODULE_NOT_FOUND Cannot find package '${peer}'`);
      }
    }
  });

  it(`the main entry's value exports fit on one screen (at most ${MAIN_ENTRY_MAX} names), and it offers what a scenario, a service, an agent and a config are written with`, async () => {
    const r = await importInNode('faultline');
    expect(r.code, r.out).toBe(0);
    const names = r.out.trim().split(',');
    expect(names.length, names.join(' ')).toBeLessThanOrEqual(MAIN_ENTRY_MAX);
    expect(names).toEqual(expect.arrayContaining(['defineScenario', 'defineService', 'defineAgent', 'defineHttpAgent', 'defineConfig', 'runMatrix', 'runTrial', 'z']));
  });

  it('type-checks a consumer of the main entry, report, runtime and testing with tsc --strict, skipLibCheck off, and also erasableSyntaxOnly', async () => {
    await project.write('consumer.ts', await fixture('consumer.ts'));
    await project.write('tsconfig.json', tsconfig({}));
    const strict = await run(process.execPath, [TSC, '-p', '.'], project.dir);
    expect(strict.stdout + strict.stderr).toBe('');
    expect(strict.code).toBe(0);
    await project.write('tsconfig.json', tsconfig({ erasableSyntaxOnly: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, verbatimModuleSyntax: true }));
    const strictest = await run(process.execPath, [TSC, '-p', '.'], project.dir);
    expect(strictest.stdout + strictest.stderr).toBe('');
    expect(strictest.code).toBe(0);
  });

  it('npx faultline init && npx faultline run exits 0', async () => {
    const init = await project.npx(['faultline', 'init']);
    expect(init.code, init.stdout + init.stderr).toBe(0);
    expect(init.stdout).toContain('added    package.json script "faultline": "faultline run"');
    const first = await project.npx(['faultline', 'run']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toMatch(/✓ helpdesk-partial-write +1\.000 \[0\.40, 1\.00\] +1\.000 \[0\.02, 1\.00\] +1\.000 \[0\.87, 1\.00\] +4\/4/);
    expect(first.stdout).toContain('gates: all 4 held');
  });

  it('a failing run names the rules and the page in the installed package', async () => {
    // k stays at the config's 4: its pass^4 gate could never hold with fewer trials (exit 2).
    const r = await project.npx(['faultline', 'run', 'payment-quota-exceeded', '--config', 'naive', '--out', 'naive']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('rules: R5 R23 (explained in node_modules/faultline/docs/rules.md#r5)');
  });
});

/** An http agent that only says it is done: the peer checks refuse its scenario before it runs. */
const HTTP_AGENT = `export default async () => ({ outcome: 'completed', claims: [] });\n`;
const httpScenario = (name: string, adapter: string): string =>
  `name: ${name}\nagent:\n  kind: http\n  task: say done\n  module: ./agent.mjs\nhttp:\n  adapter: ${adapter}\ngoal:\n  outcome: [completed]\n`;
/** The exact version faultline's package.json names for a peer (\`^2.15.0\` gives 2.15.0). */
const peerVersion = async (peer: string): Promise<string> =>
  (JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> }).peerDependencies[peer]!.replace(/^[\^~]/, '');

describe('installed with no optional peer: every command that runs trials refuses a run that needs one, before the first trial', SLOW, () => {
  beforeAll(async () => {
    await project.write('peers/agent.mjs', HTTP_AGENT);
    await project.write('peers/via-msw.yaml', httpScenario('via-msw', 'msw'));
    await project.write('peers/via-nock.yaml', httpScenario('via-nock', 'nock'));
  });

  // Each command meets one of the two peers, and each peer at least two commands: every
  // (command, peer) pair would be ten installed-CLI runs (each loads the project's TypeScript
  // config) for one peer check, shared by all commands.
  const COMMANDS: readonly { readonly args: readonly string[]; readonly peer: 'msw' | 'nock' }[] = [
    { args: ['run'], peer: 'msw' },
    { args: ['compare'], peer: 'nock' },
    { args: ['explore', '--runs', '2'], peer: 'msw' },
    { args: ['sweep', '--lambda', '0', '--k', '1'], peer: 'nock' },
    { args: ['replay'], peer: 'msw' },
  ];

  for (const { args: command, peer } of COMMANDS) {
    it(`${command[0]}: an http agent intercepted by ${peer}: exit 2 naming the scenario, the peer and the install command`, async () => {
      const file = `peers/via-${peer}.yaml`;
      const r = await project.npx(['faultline', command[0]!, file, ...command.slice(1), '--config', 'rulebook']);
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toContain(`scenario "${file.slice('peers/'.length, -'.yaml'.length)}" (an http agent, intercepted by ${peer}`);
      expect(r.stderr).toContain(`needs ${peer}`);
      expect(r.stderr).toContain(`install with: npm i -D -E ${peer}@${await peerVersion(peer)}`);
      expect(r.stderr).not.toContain('faultline crashed');
      expect(r.stdout).not.toMatch(/trial 0|plans?, none failed/);
    });
  }

  it('a configuration on cockatiel or p-retry: exit 2 naming the configuration and the install command', async () => {
    // Each configuration on at least one command, each command once (one check serves them all).
    const runs = [
      ['cockatiel-decorrelated', 'cockatiel', ['run', '--k', '1']],
      ['p-retry-randomized', 'p-retry', ['replay']],
      ['cockatiel-decorrelated', 'cockatiel', ['explore', '--runs', '2']],
    ] as const;
    for (const [config, peer, command] of runs) {
      const r = await project.npx(['faultline', command[0]!, 'read-timeout-retry', ...command.slice(1), '--config', config]);
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toContain(`configuration "${config}" (kind: ${peer}) needs ${peer}`);
      expect(r.stderr).toContain(`install with: npm i -D -E ${peer}@${await peerVersion(peer)}`);
    }
  });
});

describe('with vitest, msw and nock installed', SLOW, () => {
  beforeAll(async () => {
    const peers = await Promise.all(['vitest', 'vite', 'msw', 'nock'].map(async (p) => `${p}@${await repoVersion(p)}`));
    await project.install(peers);
  }, 900_000);

  it('runs the http agent the peer check refused without them, on msw and on nock', async () => {
    // Written here too, so this test stands alone (as under -t) and does not lean on another block's set-up.
    await project.write('peers/agent.mjs', HTTP_AGENT);
    await project.write('peers/via-msw.yaml', httpScenario('via-msw', 'msw'));
    await project.write('peers/via-nock.yaml', httpScenario('via-nock', 'nock'));
    for (const file of ['peers/via-msw.yaml', 'peers/via-nock.yaml']) {
      // k stays at the config's 4 (init wrote faultline.config.ts earlier): its pass^4 gate could never hold with fewer trials.
      const r = await project.npx(['faultline', 'run', file, '--reporter', 'console']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
    }
  });

  it('imports every subpath from plain node', async () => {
    for (const specifier of SUBPATHS) {
      const r = await importInNode(specifier);
      expect(r.code, `${specifier}: ${r.out}`).toBe(0);
    }
  });

  it('runs scenarios as vitest tests and the matchers pass, two files in parallel under the default pool', async () => {
    await project.write('test/describe.test.ts', await fixture('describe.fixture.ts'));
    await project.write('test/matchers.test.ts', await fixture('matchers.fixture.ts'));
    const r = await project.npx(['vitest', 'run', 'test/describe.test.ts', 'test/matchers.test.ts']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Test Files +2 passed \(2\)/);
    expect(r.stdout).toMatch(/Tests +3 passed \(3\)/);
  });

  it('type-checks test files using the matchers, msw and nock (strict, skipLibCheck off, erasableSyntaxOnly)', async () => {
    await project.write('test/describe.test.ts', await fixture('describe.fixture.ts'));
    await project.write('test/matchers.test.ts', await fixture('matchers.fixture.ts'));
    await project.write('test/types.ts', await fixture('types.fixture.ts'));
    await project.write('test/serviceHttp.msw.test.ts', await fixture('serviceHttp.msw.fixture.ts'));
    await project.write('test/serviceHttp.nock.test.ts', await fixture('serviceHttp.nock.fixture.ts'));
    await project.write(
      'tsconfig.vitest.json',
      JSON.stringify({
        compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2023', noEmit: true, skipLibCheck: false, erasableSyntaxOnly: true, types: ['node'] },
        files: ['test/describe.test.ts', 'test/matchers.test.ts', 'test/types.ts', 'test/serviceHttp.msw.test.ts', 'test/serviceHttp.nock.test.ts'],
      }),
    );
    const r = await run(process.execPath, [TSC, '-p', 'tsconfig.vitest.json'], project.dir);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('serves a declared service over msw and over nock without runTrial (serviceHttp), under a fault plan', async () => {
    await project.write('test/serviceHttp.msw.test.ts', await fixture('serviceHttp.msw.fixture.ts'));
    await project.write('test/serviceHttp.nock.test.ts', await fixture('serviceHttp.nock.fixture.ts'));
    const r = await project.npx(['vitest', 'run', 'test/serviceHttp.msw.test.ts', 'test/serviceHttp.nock.test.ts']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Tests +2 passed \(2\)/);
  });

  it('npx faultline init --example helpdesk writes the worked example from the package, and npx faultline run passes on it', async () => {
    const init = await project.npx(['faultline', 'init', '--example', 'helpdesk', '--dir', 'helpdesk-example']);
    expect(init.code, init.stdout + init.stderr).toBe(0);
    expect(init.stdout).toMatch(/created +faultline\/examples\/helpdesk\/code\/helpdesk\.service\.ts\n/);
    const r = await run('npx', ['--no-install', 'faultline', 'run'], join(project.dir, 'helpdesk-example'));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/✓ helpdesk-ticket-over-http +1\.000/);
    expect(r.stdout).toMatch(/✓ helpdesk-ticket-partial-write +1\.000/);
    expect(r.stdout).toContain('gates: all 4 held');
  });

  it('fails with the evidence and the replay command when the run breaks the goal', async () => {
    await project.write('test/broken.test.ts', await fixture('broken.fixture.ts'));
    const r = await project.npx(['vitest', 'run', 'test/broken.test.ts']);
    const out = r.stdout + r.stderr;
    expect(r.code).toBe(1);
    expect(out).toMatch(/Tests +2 failed \(2\)/);
    expect(out).toContain('expected pass^2 of helpdesk-partial-write × naive to be at least 1, got 0.000 (0 of 2 trials passed)');
    expect(out).toContain('expected no duplicate effects in helpdesk-partial-write × naive');
    expect(out).toMatch(/duplicates: helpdesk:req-1 was created 2 times/);
    expect(out).toMatch(/evidence: \[/);
    expect(out).toContain('replay: faultline replay faultline/scenarios/helpdesk-partial-write.scenario.ts --config naive --seed 1 --trial 0');
    // The describeScenarios test is named for its cell, and fails at the user's call, not in node_modules/faultline.
    expect(out).toContain(' FAIL  test/broken.test.ts > helpdesk-partial-write › naive (k = 2, seed 1)');
    expect(out).toMatch(/\n ❯ test\/broken\.test\.ts:6:\d+\n/);
    expect(out).not.toContain('dist/vitest/describeScenarios.js');
  });
});
