import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleGraph } from './moduleGraph.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faultline-module-graph-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const write = async (path: string, text: string): Promise<string> => {
  await mkdir(dirname(join(dir, path)), { recursive: true });
  await writeFile(join(dir, path), text);
  return join(dir, path);
};

// A command agent's script, in any language, in the scenario's folder or below it.
const script = fc
  .tuple(
    fc.option(fc.stringMatching(/^[a-z][a-z0-9_-]{0,6}$/), { nil: undefined }),
    fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/),
    fc.constantFrom('py', 'sh', 'rb', 'js', 'mjs', 'ts'),
  )
  .map(([folder, stem, ext]) => (folder === undefined ? `${stem}.${ext}` : `${folder}/${stem}.${ext}`));

describe('moduleGraph: what --watch follows', () => {
  it(
    "a command agent's script, named bare in a scenario's argv (from its folder or its cwd) or in a " +
      "config module's agents, is watched",
    async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(script, fc.boolean(), async (path, underCwd) => {
          const root = `case-${n++}`;
          const cwd = underCwd ? 'agents' : undefined;
          const file = await write(`${root}/${cwd === undefined ? '' : `${cwd}/`}${path}`, '# the agent\n');
          const scenario = await write(
            `${root}/s.yaml`,
            `name: s\nagent:\n  kind: command\n  argv: [python3, ${path}, --verbose]\n${cwd === undefined ? '' : `  cwd: ${cwd}\n`}`,
          );
          expect([...(await moduleGraph(scenario))]).toContain(file);
          const config = await write(
            `${root}/faultline.config.mjs`,
            `export default { agents: [{ name: 'a', kind: 'command', argv: ['python3', ` +
              `'${cwd === undefined ? '' : `${cwd}/`}${path}'] }] };\n`,
          );
          expect([...(await moduleGraph(config))]).toContain(file);
        }),
        { numRuns: 12, seed: 43 },
      );
    },
  );

  it('words that name no file are not followed', async () => {
    const scenario = await write(
      'plain/s.yaml',
      'name: s\nagent:\n  kind: command\n  argv: [python3, missing.py]\ngoal: { effects: { ticket.opened: 1 } }\n',
    );
    expect([...(await moduleGraph(scenario))]).toEqual([scenario]);
  });
});
