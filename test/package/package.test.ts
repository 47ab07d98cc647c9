/**
 * The package from a user's side, part 1 of 7 (see ./packageTest.ts for what the files share):
 * the tarball's contents and exports, and a project with no optional peer installed importing
 * it from plain node.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packOnce, type Consumer, type Packed } from './consumer.js';
import { bareProject, importInNode, INSTALL_TIMEOUT, MAIN_ENTRY_MAX, NEEDS, SLOW, SUBPATHS } from './packageTest.js';

let packed: Packed;
let project: Consumer;

beforeAll(async () => {
  packed = await packOnce();
  project = await bareProject();
}, INSTALL_TIMEOUT);
afterAll(async () => {
  await project?.cleanup();
  await packed?.cleanup();
});

describe('the tarball', SLOW, () => {
  it('holds the built package, the library, the rules and the licence, and no tests or sources', () => {
    const files = packed.files;
    for (const f of [
      'package.json',
      'README.md',
      'LICENSE',
      'docs/rules.md',
      'docs/api.md',
      'bin/faultline.js',
      'scenarios/configs/rulebook.yaml',
      'dist/cli/main.js',
    ])
      expect(files).toContain(f);
    // The worked examples `init --example` writes travel with the package; the others stay in the repository.
    for (const f of [
      'scenarios/examples/helpdesk/ticket-over-http.yaml',
      'scenarios/examples/helpdesk/code/helpdesk.service.ts',
      'scenarios/examples/sdk-agents/code/openaiAgent.ts',
      'scenarios/examples/local-commands/code/tasks.service.ts',
    ])
      expect(files).toContain(f);
    expect(
      files.filter((f) => /^scenarios\/examples\/(served|rest-order-tool)\/|^scenarios\/examples\/README\.md$/.test(f)),
    ).toEqual([]);
    for (const s of ['index', 'report', 'runtime', 'testing', 'vitest', 'msw', 'nock', 'testcontainers'])
      expect(files).toEqual(expect.arrayContaining([`dist/public/${s}.js`, `dist/public/${s}.d.ts`]));
    // dist/public/testing.* is the `faultline/testing` entry; any other testing file is a test helper.
    const stray = files.filter(
      (f) =>
        /\.test\.|testkit|(?<!^dist\/public\/)testing|testService|\.tsbuildinfo$/.test(f) ||
        /^(src|test|bench|scripts|\.ci)\//.test(f) ||
        (f.startsWith('dist/') && !/\.(js|d\.ts)$/.test(f)),
    );
    expect(stray).toEqual([]);
  });

  it('declares every export with types and import conditions into dist/, and a bin that runs compiled code', async () => {
    const pkg = JSON.parse(await readFile(join(project.dir, 'node_modules', 'faultline', 'package.json'), 'utf8')) as {
      exports: Record<string, string | { types: string; import: string }>;
      bin: Record<string, string>;
    };
    for (const [key, target] of Object.entries(pkg.exports)) {
      if (key === './package.json') continue;
      expect(target).toMatchObject({
        types: expect.stringMatching(/^\.\/dist\/.+\.d\.ts$/),
        import: expect.stringMatching(/^\.\/dist\/.+\.js$/),
      });
    }
    expect(Object.keys(pkg.exports).sort()).toEqual([
      '.',
      './msw',
      './nock',
      './package.json',
      './report',
      './runtime',
      './testcontainers',
      './testing',
      './vitest',
    ]);
    const bin = await readFile(join(project.dir, 'node_modules', 'faultline', pkg.bin['faultline']!), 'utf8');
    expect(bin).toContain('../dist/cli/main.js');
    expect(bin).not.toContain('../src/');
    expect(bin).not.toMatch(/from ['"]tsx|import\(['"]tsx/);
  });
});

describe('installed with no optional peer', SLOW, () => {
  it('imports from plain node: the main entry, report, runtime, testing and testcontainers load, the others name the peer they need', async () => {
    for (const specifier of SUBPATHS) {
      const r = await importInNode(project, specifier);
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
    const r = await importInNode(project, 'faultline');
    expect(r.code, r.out).toBe(0);
    const names = r.out.trim().split(',');
    expect(names.length, names.join(' ')).toBeLessThanOrEqual(MAIN_ENTRY_MAX);
    expect(names).toEqual(
      expect.arrayContaining([
        'defineScenario',
        'defineService',
        'defineAgent',
        'defineHttpAgent',
        'defineConfig',
        'runMatrix',
        'runTrial',
        'z',
      ]),
    );
  });
});
