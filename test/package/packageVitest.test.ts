/**
 * The package from a user's side, part 7 of 7 (see ./packageTest.ts): in a project with vitest,
 * msw and nock installed, where `faultline init` has run, the user's own vitest runs:
 * scenarios as tests, the matchers, serviceHttp, and a failing run's evidence.
 */
import { describe, expect, it } from 'vitest';
import { fileProject, fixture, initedPeersProject, serviceHttpFixture, SLOW } from './packageTest.js';

const project = fileProject(initedPeersProject);
// The user's vitest, with a bound that only catches a hang: its default 5 s per test ran out on the
// fixtures' trials at load 25 (before and after the seventh round of docs/testing.md alike).
const vitestRun = (files: readonly string[]) => project.bin(['vitest', 'run', '--testTimeout', '300000', ...files]);

describe('with vitest, msw and nock installed', SLOW, () => {
  it('runs scenarios as vitest tests and the matchers pass, two files in parallel under the default pool', async () => {
    await project.write('test/describe.test.ts', await fixture('describe.fixture.ts'));
    await project.write('test/matchers.test.ts', await fixture('matchers.fixture.ts'));
    const r = await vitestRun(['test/describe.test.ts', 'test/matchers.test.ts']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Test Files +2 passed \(2\)/);
    expect(r.stdout).toMatch(/Tests +3 passed \(3\)/);
  });

  it('serves a declared service over msw and over nock without runTrial (serviceHttp), under a fault plan', async () => {
    await project.write('test/serviceHttp.msw.test.ts', await serviceHttpFixture('msw'));
    await project.write('test/serviceHttp.nock.test.ts', await serviceHttpFixture('nock'));
    const r = await vitestRun(['test/serviceHttp.msw.test.ts', 'test/serviceHttp.nock.test.ts']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Tests +2 passed \(2\)/);
  });

  it('fails with the evidence and the replay command when the run breaks the goal', async () => {
    await project.write('test/broken.test.ts', await fixture('broken.fixture.ts'));
    const r = await vitestRun(['test/broken.test.ts']);
    const out = r.stdout + r.stderr;
    expect(r.code).toBe(1);
    expect(out).toMatch(/Tests +2 failed \(2\)/);
    expect(out).toContain(
      'expected pass^2 of helpdesk-partial-write × naive to be at least 1, got 0.000 (0 of 2 trials passed)',
    );
    expect(out).toContain('expected no duplicate effects in helpdesk-partial-write × naive');
    expect(out).toMatch(/duplicates: helpdesk:req-1 was created 2 times/);
    expect(out).toMatch(/evidence: \[/);
    expect(out).toContain(
      'replay: faultline replay faultline/scenarios/helpdesk-partial-write.scenario.ts --config naive --seed 1 --trial 0',
    );
    // The describeScenarios test is named for its cell, and fails at the user's call, not in node_modules/faultline.
    expect(out).toContain(' FAIL  test/broken.test.ts > helpdesk-partial-write › naive (k = 2, seed 1)');
    expect(out).toMatch(/\n ❯ test\/broken\.test\.ts:6:\d+\n/);
    expect(out).not.toContain('dist/vitest/describeScenarios.js');
  });
});
