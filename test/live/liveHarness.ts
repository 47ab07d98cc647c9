/**
 * What the live CLI tests share: fake model servers closed after each test, temp user projects
 * removed after the file, and the JSON report read back. Call at a test file's top level.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach } from 'vitest';
import { httpAgentOpensTicket } from '../cli/ticketScenario.js';
import { userProject } from '../cli/userProject.js';
import { startFakeModelServer, type FakeModelOptions, type FakeModelServer } from './fakeModelServer.js';

export const EXAMPLES = fileURLToPath(new URL('../../scenarios/examples/', import.meta.url));

/**
 * A scenario whose http agent is the worked example on `api`'s SDK (scenarios/examples/sdk-agents),
 * opening a helpdesk ticket with the model at `baseUrl`; `extra` is more of the `model:` block.
 */
export const sdkAgentScenario = (
  name: string,
  baseUrl: string,
  api: 'openai' | 'anthropic' = 'openai',
  extra = '',
): string => `name: ${name}
services: [${join(EXAMPLES, 'helpdesk/code/helpdesk.service.ts')}]
model:
  api: ${api}
  baseUrl: ${baseUrl}
${extra}${httpAgentOpensTicket(join(EXAMPLES, `sdk-agents/code/${api === 'openai' ? 'openaiAgent' : 'anthropicAgent'}.ts`))}`;

export interface LiveHarness {
  /** A fake model server, closed after the test. */
  serve(options: FakeModelOptions): Promise<FakeModelServer>;
  /** A temp user project holding `files`, removed after the file; its path. */
  project(files: Record<string, string>): Promise<string>;
  /** `<dir>/<out>/faultline.json`, parsed as the caller's view of it. */
  report<R>(dir: string, out: string): Promise<R>;
}

export function liveHarness(name: string): LiveHarness {
  const servers: FakeModelServer[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await Promise.all(cleanups.map((c) => c()));
  });
  return {
    async serve(options) {
      const s = await startFakeModelServer(options);
      servers.push(s);
      return s;
    },
    async project(files) {
      const dir = await userProject(name, files);
      cleanups.push(dir.cleanup);
      return dir.path;
    },
    async report<R>(dir: string, out: string) {
      return JSON.parse(await readFile(join(dir, out, 'faultline.json'), 'utf8')) as R;
    },
  };
}
