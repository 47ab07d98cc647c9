/**
 * The package from a user's side, part 5 of 7 (see ./packageTest.ts): in a project with vitest,
 * msw and nock installed, where `faultline init` has run: the http agents the peer check
 * refused without them, every subpath from plain node, and the worked example.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './consumer.js';
import { fileProject, importInNode, initedPeersProject, SLOW, SUBPATHS, writeHttpScenarios } from './packageTest.js';

const project = fileProject(initedPeersProject);

describe('with vitest, msw and nock installed', SLOW, () => {
  it('runs the http agent the peer check refused without them, on msw and on nock', async () => {
    // Written here too, so this test stands alone (as under -t) and does not lean on another block's set-up.
    await writeHttpScenarios(project);
    for (const file of ['peers/via-msw.yaml', 'peers/via-nock.yaml']) {
      // k stays at the config's 4 (init wrote faultline.config.ts in beforeAll): its pass^4 gate could never hold with fewer trials.
      const r = await project.bin(['faultline', 'run', file, '--reporter', 'console']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
    }
  });

  it('imports every subpath from plain node', async () => {
    for (const specifier of SUBPATHS) {
      const r = await importInNode(project, specifier);
      expect(r.code, `${specifier}: ${r.out}`).toBe(0);
    }
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
});
