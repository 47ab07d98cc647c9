/**
 * The package from a user's side, part 6 of 7 (see ./packageTest.ts): in a project with vitest,
 * msw and nock installed, where `faultline init` has run (a fixture imports its
 * faultline.config.ts), tsc over test files using the matchers, msw and nock.
 */
import { describe, expect, it } from 'vitest';
import { run } from './consumer.js';
import { fileProject, fixture, initedPeersProject, serviceHttpFixture, SLOW, TSC, tsconfig } from './packageTest.js';

const project = fileProject(initedPeersProject);

describe('with vitest, msw and nock installed', SLOW, () => {
  it('type-checks test files using the matchers, msw and nock (strict, skipLibCheck off, erasableSyntaxOnly)', async () => {
    await project.write('test/describe.test.ts', await fixture('describe.fixture.ts'));
    await project.write('test/matchers.test.ts', await fixture('matchers.fixture.ts'));
    await project.write('test/types.ts', await fixture('types.fixture.ts'));
    await project.write('test/serviceHttp.msw.test.ts', await serviceHttpFixture('msw'));
    await project.write('test/serviceHttp.nock.test.ts', await serviceHttpFixture('nock'));
    await project.write(
      'tsconfig.vitest.json',
      tsconfig({ erasableSyntaxOnly: true }, [
        'test/describe.test.ts',
        'test/matchers.test.ts',
        'test/types.ts',
        'test/serviceHttp.msw.test.ts',
        'test/serviceHttp.nock.test.ts',
      ]),
    );
    const r = await run(process.execPath, [TSC, '-p', 'tsconfig.vitest.json'], project.dir);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
