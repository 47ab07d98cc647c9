/**
 * inProcess is only worth its speed if it gives what the binary gives: the same exit code and
 * the same output, for a run (scripted agent; a user's TypeScript service), a refusal and a
 * missing file, and again for a second call in the same process (the module cache is shared).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { faultline } from './faultline.js';
import { inProcess } from './inProcess.js';
import { ORDER_AGENT_YAML } from './orderAgent.js';
import { ticketsScenario, ticketsService } from './ticketsService.js';
import { userProject } from './userProject.js';

let project: Awaited<ReturnType<typeof userProject>>;
beforeAll(async () => {
  project = await userProject('in-process', {
    's.yaml': `name: s\n${ORDER_AGENT_YAML}`,
    't.yaml': ticketsScenario(),
    'tickets.service.ts': ticketsService(),
  });
});
afterAll(() => project.cleanup());

it.each([
  ['run', 's.yaml', '--k', '1'],
  ['run', 't.yaml', '--k', '1'],
  ['explore', 's.yaml', '--ignore', 'R99', '--runs', '2'],
  ['run', 'nope.yaml'],
])('faultline %s %s …: the same exit code and output as the binary, twice', { timeout: 120_000 }, async (...args) => {
  const binary = await faultline(args, { cwd: project.path });
  expect(await inProcess(args, { cwd: project.path })).toEqual(binary);
  expect(await inProcess(args, { cwd: project.path })).toEqual(binary);
  expect(process.cwd()).not.toBe(project.path);
});

// Which faultline a user's module gets: the agent says, by its outcome, whether `faultline` resolved to the
// built package (dist/), as under the binary. In process, tsx had read the checkout's tsconfig.json, whose
// `paths` map `faultline` to src/ for the repository's own examples: the users' modules got the sources.
const whereScenario = (resolve: string): string => `import { createRequire } from 'node:module';
export default {
  name: 'where',
  agent: {
    kind: 'function',
    task: 'say which faultline this module gets',
    fn: async ({ tools }) => {
      await tools.create_order({ clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 });
      const where = ${resolve};
      return { outcome: where.includes('/dist/public/') ? 'completed' : 'failed', claims: [] };
    },
  },
  goal: { effects: { 'order.created': 1 }, outcome: ['completed'] },
};
`;

it.each([
  ['a CommonJS', '{ "name": "shop" }', "require.resolve('faultline')"],
  ['an ES-module', '{ "name": "shop", "type": "module" }', "import.meta.resolve('faultline')"],
])("%s package's module gets faultline's dist/, in process as from the binary", async (_kind, pkg, resolve) => {
  const user = await userProject('in-process-where', { 'where.ts': whereScenario(resolve) });
  try {
    await writeFile(join(user.path, 'package.json'), `${pkg}\n`);
    const args = ['run', 'where.ts', '--k', '1', '--workers', '0'];
    const binary = await faultline(args, { cwd: user.path });
    expect(binary.code, binary.stdout + binary.stderr).toBe(0);
    expect(await inProcess(args, { cwd: user.path })).toEqual(binary);
  } finally {
    await user.cleanup();
  }
});
