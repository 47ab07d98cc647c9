/**
 * The package from a user's side, part 2 of 7 (see ./packageTest.ts): in a project with no
 * optional peer installed, tsc over a consumer of the main entry and the subpaths that need none.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoVersion, run } from './consumer.js';
import { bareProject, fileProject, fixture, SLOW, TSC, tsconfig } from './packageTest.js';

const project = fileProject(bareProject);

describe('installed with no optional peer', SLOW, () => {
  it('type-checks a consumer of the main entry, report, runtime and testing with tsc --strict, skipLibCheck off, and also erasableSyntaxOnly', async () => {
    await project.write('consumer.ts', await fixture('consumer.ts'));
    await project.write('tsconfig.json', tsconfig({}));
    await project.write(
      'tsconfig.strictest.json',
      tsconfig({
        erasableSyntaxOnly: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        verbatimModuleSyntax: true,
      }),
    );
    // Both configurations in one tsc in build mode: each its own program and checker, as two
    // `tsc -p` runs, sharing the parse of the declaration files (19.0 s of CPU as two runs, 15.7 s
    // as one; docs/testing.md, seventh round). An error in either fails the run; each leaves a
    // build record naming its file, with `errors: true` had it found any.
    const r = await run(process.execPath, [TSC, '-b', 'tsconfig.json', 'tsconfig.strictest.json'], project.dir);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const config of ['tsconfig', 'tsconfig.strictest']) {
      const record = JSON.parse(await readFile(join(project.dir, `${config}.tsbuildinfo`), 'utf8')) as unknown;
      expect(record, config).toEqual({ root: ['./consumer.ts'], version: await repoVersion('typescript') });
    }
  });
});
