/**
 * The package from a user's side, part 3 of 7 (see ./packageTest.ts): in a fresh project with
 * no optional peer installed, `npx faultline init && npx faultline run`, then a failing run.
 */
import { describe, expect, it } from 'vitest';
import { bareProject, fileProject, SLOW } from './packageTest.js';

const project = fileProject(bareProject);

describe('installed with no optional peer', SLOW, () => {
  it('npx faultline init && npx faultline run exits 0', async () => {
    const init = await project.npx(['faultline', 'init']);
    expect(init.code, init.stdout + init.stderr).toBe(0);
    expect(init.stdout).toContain('added    package.json script "faultline": "faultline run"');
    const first = await project.npx(['faultline', 'run']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      /✓ helpdesk-partial-write +1\.000 \[0\.40, 1\.00\] +1\.000 \[0\.02, 1\.00\] +1\.000 \[0\.87, 1\.00\] +4\/4/,
    );
    expect(first.stdout).toContain('gates: all 4 held');
  });

  it('a failing run names the rules and the page in the installed package', async () => {
    // k stays at the config's 4: its pass^4 gate could never hold with fewer trials (exit 2).
    const r = await project.npx(['faultline', 'run', 'payment-quota-exceeded', '--config', 'naive', '--out', 'naive']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('rules: R5 R23 (explained in node_modules/faultline/docs/rules.md#r5)');
  });
});
