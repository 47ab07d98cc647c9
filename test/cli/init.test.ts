import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { faultline, tempDir } from './faultline.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FILES = [
  'faultline.config.ts',
  'faultline/services/helpdesk.service.ts',
  'faultline/agents/open-ticket.agent.ts',
  'faultline/scenarios/helpdesk-partial-write.scenario.ts',
  '.github/workflows/faultline.yml',
];

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir('init');
  // `faultline` resolves as in a user's project: to the built package, through its exports.
  await mkdir(join(dir.path, 'node_modules'));
  await symlink(REPO, join(dir.path, 'node_modules', 'faultline'), 'dir');
});
afterEach(() => dir.cleanup());

const read = (path: string): Promise<string> => readFile(join(dir.path, path), 'utf8');

describe('faultline init', () => {
  it('writes a working example: run passes under rulebook and fails with the evidence under naive', async () => {
    await writeFile(join(dir.path, 'package.json'), '{\n    "name": "shop",\n    "scripts": { "test": "vitest" }\n}\n');
    const init = await faultline(['init'], { cwd: dir.path });
    expect(init.code).toBe(0);
    for (const f of FILES) expect(init.stdout).toMatch(new RegExp(`created +${f.replaceAll('.', '\\.')}\\n`));
    expect(init.stdout).toContain('added    package.json script "faultline": "faultline run"');
    // The user's package.json keeps its content and its four-space indentation.
    expect(await read('package.json')).toBe('{\n    "name": "shop",\n    "scripts": {\n        "test": "vitest",\n        "faultline": "faultline run"\n    }\n}\n');

    const run = await faultline(['run'], { cwd: dir.path });
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/✓ helpdesk-partial-write +1\.000 \[0\.40, 1\.00\] +1\.000 \[0\.02, 1\.00\] +1\.000 \[0\.87, 1\.00\] +4\/4/);
    expect(run.stdout).toContain('reports: reports/faultline/faultline.json');

    const naive = await faultline(['run', '--config', 'naive'], { cwd: dir.path });
    expect(naive.code).toBe(1);
    expect(naive.stdout).toContain('ticket.created happened 2 times, expected 1');
    expect(naive.stdout).toContain('replay: faultline replay faultline/scenarios/helpdesk-partial-write.scenario.ts --config naive --seed 1 --trial 0');
  });

  it('is safe to run twice: it never overwrites, and says what it skipped', async () => {
    await writeFile(join(dir.path, 'package.json'), '{ "name": "shop" }\n');
    expect((await faultline(['init'], { cwd: dir.path })).code).toBe(0);
    await writeFile(join(dir.path, 'faultline.config.ts'), '// mine\nexport default {};\n');
    const pkg = await read('package.json');

    const again = await faultline(['init'], { cwd: dir.path });
    expect(again.code).toBe(0);
    for (const f of FILES) expect(again.stdout).toContain(`skipped  ${f} (it exists)`);
    expect(again.stdout).toContain('skipped  package.json script "faultline": "faultline run" (package.json already has a "faultline" script)');
    expect(again.stdout).toContain('6 skipped: nothing was overwritten');
    expect(await read('faultline.config.ts')).toBe('// mine\nexport default {};\n');
    expect(await read('package.json')).toBe(pkg);
  });

  it('without a package.json, writes the files and says why the script was skipped', async () => {
    const init = await faultline(['init'], { cwd: dir.path });
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('skipped  package.json script "faultline": "faultline run" (there is no package.json here');
    expect(await read('.github/workflows/faultline.yml')).toContain('run: npm run faultline');
  });
});
