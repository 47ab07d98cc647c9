import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { faultline, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';
import { agentScenario } from './misbehavingAgents.js';

/**
 * A case's folder may go when its case ends: a later case still loads a user's .ts file. tsx's
 * compiler (esbuild) reads the working directory once, when it is loaded, and starts its service
 * there at the first file it must compile. When it was loaded during a case whose files were all
 * in tsx's cache (/tmp/tsx-*), as sdkAgents.test.ts's first case was, the service started only at
 * a later case's new file, in the removed folder: `spawn …/esbuild ENOENT`, exit 2. This file's
 * first case is the first to load TypeScript in its process, with its file compiled beforehand by
 * the binary; the second case's file is new to the cache (the process id in a comment).
 */
// ESM, as a user's project of today is: its .ts files load through tsx's loader thread, where
// esbuild is loaded for them (the CommonJS hooks share vitest's copy, loaded from the checkout).
const ESM = JSON.stringify({ type: 'module' });
const tsScenario = (name: string): string => `// ${name}\n${agentScenario(name, '')}`;

describe('in-process cases in folders of their own', () => {
  it('a new .ts scenario compiles after the folder of the case that first loaded TypeScript was removed', async () => {
    const first = await tempDir('in-process-folders');
    try {
      await writeFile(join(first.path, 'package.json'), ESM);
      await writeFile(join(first.path, 'cached.ts'), tsScenario('cached'));
      expect((await faultline(['list', 'cached.ts'], { cwd: first.path })).code).toBe(0);
      const r = await inProcess(['run', 'cached.ts', '--k', '1', '--workers', '0'], { cwd: first.path });
      expect(r.code, r.stderr).toBe(0);
    } finally {
      await first.cleanup();
    }
    const second = await tempDir('in-process-folders');
    try {
      await writeFile(join(second.path, 'package.json'), ESM);
      await writeFile(join(second.path, 'fresh.ts'), tsScenario(`fresh-${process.pid}`));
      const r = await inProcess(['run', 'fresh.ts', '--k', '1', '--workers', '0'], { cwd: second.path });
      expect(r.code, r.stderr).toBe(0);
    } finally {
      await second.cleanup();
    }
  });
});
