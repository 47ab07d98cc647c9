/**
 * inProcess is only worth its speed if it gives what the binary gives: the same exit code and
 * the same output, for a run (scripted agent; a user's TypeScript service), a refusal and a
 * missing file, and again for a second call in the same process (the module cache is shared).
 */
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
