/**
 * One copy of faultline per process, whatever the user's module system (both are checked): a user's
 * .ts file in a CommonJS package (no "type": "module", as `npm init` writes) imports each of the package's
 * entries through a require, and gets, export for export, what `import()` gives, which is the copy
 * the CLI runs. tsx's CommonJS hook compiled the whole package again for such a require (a second
 * copy of every class and every module's state, about 0.4 s of CPU per process), and could not
 * require `faultline/vitest` at all. Every entry of package.json's `exports` is checked, so a new
 * one is covered when it is added. In a child process of the built package, as the binary loads.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../cli/faultline.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe.each([
  ['CommonJS', '{ "name": "shop" }'],
  ['ES module', '{ "name": "shop", "type": "module" }'],
])("a user's module in a %s package and the CLI", (_kind, packageJson) => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let entries: string[];
  beforeAll(async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    entries = Object.keys(pkg.exports)
      .filter((key) => key !== './package.json')
      .map((key) => (key === '.' ? 'faultline' : `faultline/${key.slice(2)}`));
    dir = await tempDir('one-faultline');
    await mkdir(join(dir.path, 'node_modules'));
    await symlink(ROOT, join(dir.path, 'node_modules', 'faultline'), 'dir');
    // The entries' own dependencies (msw, nock, testcontainers, vitest) as the user installed them.
    for (const name of ['msw', 'nock', 'testcontainers', 'vitest'])
      await symlink(join(ROOT, 'node_modules', name), join(dir.path, 'node_modules', name), 'dir');
    await writeFile(join(dir.path, 'package.json'), `${packageJson}\n`);
    const imports = entries.map((spec, i) => `import * as e${i} from '${spec}';`).join('\n');
    const all = entries.map((spec, i) => `  '${spec}': e${i},`).join('\n');
    await writeFile(join(dir.path, 'probe.ts'), `${imports}\nexport default {\n${all}\n};\n`);
  });
  afterAll(() => dir.cleanup());

  it("gets, for every entry of the package and every export, what import() gives: the CLI's own copy", async () => {
    // The probe is loaded as the CLI loads a scenario: through the built loader, which registers tsx.
    const script = `
      const { loadFile } = await import(${JSON.stringify(join(ROOT, 'dist', 'scenario', 'loadFile.js'))});
      const probe = await loadFile('probe.ts', 'SCENARIO_INVALID');
      const out = {};
      for (const [spec, got] of Object.entries(probe)) {
        const ns = await import(spec);
        out[spec] = { exports: Object.keys(ns).length, other: Object.keys(ns).filter((k) => got[k] !== ns[k]) };
      }
      process.stdout.write(JSON.stringify(out));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: dir.path,
    });
    const seen = JSON.parse(stdout) as Record<string, { exports: number; other: string[] }>;
    expect(Object.keys(seen)).toEqual(entries);
    for (const spec of entries) {
      expect(seen[spec]!.exports, spec).toBeGreaterThan(0);
      expect(seen[spec]!.other, spec).toEqual([]);
    }
  });
});
