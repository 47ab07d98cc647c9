/**
 * The package from a user's side, part 6 of 7 (see ./packageTest.ts): in a project with vitest,
 * msw and nock installed, where `npx faultline init` has run (a fixture imports its
 * faultline.config.ts), tsc over test files using the matchers, msw and nock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, type Consumer } from './consumer.js';
import { fixture, init, INSTALL_TIMEOUT, peersProject, SLOW, TSC } from './packageTest.js';

let project: Consumer;

beforeAll(async () => {
  project = await peersProject();
  await init(project);
}, INSTALL_TIMEOUT);
afterAll(async () => {
  await project?.cleanup();
});

describe('with vitest, msw and nock installed', SLOW, () => {
  it('type-checks test files using the matchers, msw and nock (strict, skipLibCheck off, erasableSyntaxOnly)', async () => {
    await project.write('test/describe.test.ts', await fixture('describe.fixture.ts'));
    await project.write('test/matchers.test.ts', await fixture('matchers.fixture.ts'));
    await project.write('test/types.ts', await fixture('types.fixture.ts'));
    await project.write('test/serviceHttp.msw.test.ts', await fixture('serviceHttp.msw.fixture.ts'));
    await project.write('test/serviceHttp.nock.test.ts', await fixture('serviceHttp.nock.fixture.ts'));
    await project.write(
      'tsconfig.vitest.json',
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2023',
          noEmit: true,
          skipLibCheck: false,
          erasableSyntaxOnly: true,
          types: ['node'],
        },
        files: [
          'test/describe.test.ts',
          'test/matchers.test.ts',
          'test/types.ts',
          'test/serviceHttp.msw.test.ts',
          'test/serviceHttp.nock.test.ts',
        ],
      }),
    );
    const r = await run(process.execPath, [TSC, '-p', 'tsconfig.vitest.json'], project.dir);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
