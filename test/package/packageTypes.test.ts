/**
 * The package from a user's side, part 2 of 7 (see ./packageTest.ts): in a project with no
 * optional peer installed, tsc over a consumer of the main entry and the subpaths that need none.
 */
import { describe, expect, it } from 'vitest';
import { run } from './consumer.js';
import { bareProject, fileProject, fixture, SLOW, TSC, tsconfig } from './packageTest.js';

const project = fileProject(bareProject);

describe('installed with no optional peer', SLOW, () => {
  it('type-checks a consumer of the main entry, report, runtime and testing with tsc --strict, skipLibCheck off, and also erasableSyntaxOnly', async () => {
    await project.write('consumer.ts', await fixture('consumer.ts'));
    await project.write('tsconfig.json', tsconfig({}));
    const strict = await run(process.execPath, [TSC, '-p', '.'], project.dir);
    expect(strict.stdout + strict.stderr).toBe('');
    expect(strict.code).toBe(0);
    await project.write(
      'tsconfig.json',
      tsconfig({
        erasableSyntaxOnly: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        verbatimModuleSyntax: true,
      }),
    );
    const strictest = await run(process.execPath, [TSC, '-p', '.'], project.dir);
    expect(strictest.stdout + strictest.stderr).toBe('');
    expect(strictest.code).toBe(0);
  });
});
