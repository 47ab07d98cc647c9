/**
 * The SDK agent examples (scenarios/examples/sdk-agents), offline against the scripted model:
 * the example's `run` through the real binary; `init`, the escaping client's run and the replays
 * (variations of paths with their own end-to-end tests) in process (`./inProcess.ts`; the
 * replays' trials run on a worker, the escaping client's run with `--workers 0`).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';
import { userProject } from './userProject.js';

const EXAMPLES = fileURLToPath(new URL('../../scenarios/examples/sdk-agents/', import.meta.url));

let dir: Awaited<ReturnType<typeof tempDir>>;
let project: Awaited<ReturnType<typeof userProject>> | undefined;
beforeAll(async () => {
  dir = await tempDir('sdk');
});
// The example's project is removed with the file's folder, at the end (removing a case's folder
// after its case is safe too: test/cli/inProcessFolders.test.ts).
afterAll(async () => {
  await project?.cleanup();
  await dir.cleanup();
});

describe("agents on the official SDKs, against a scripted model at the API's own address", () => {
  it('openai, @anthropic-ai/sdk, the Vercel AI SDK and the OpenAI Agents SDK each open one ticket through a lost answer', async () => {
    // The example as a user gets it: its config's agents run the one scenario, the Anthropic agent its own.
    project = await userProject('sdk-example', {}, [
      'openai',
      'ai',
      '@ai-sdk/openai',
      '@openai/agents',
      '@anthropic-ai/sdk',
      'msw',
    ]);
    expect((await inProcess(['init', '--example', 'sdk-agents'], { cwd: project.path })).code).toBe(0);
    const r = await faultline(['run', '--k', '2', '--gate', 'pass^2>=1', '--reporter', 'json', '--out', 'reports'], {
      cwd: project.path,
    });
    expect(r.code, r.stderr).toBe(0);
    for (const label of ['openai', 'ai-sdk', 'agents-sdk'])
      expect(r.stderr).toContain(`✓ ${label} × sdk-helpdesk-partial-write: 2/2 passed`);
    expect(r.stderr).toContain('✓ rulebook × sdk-helpdesk-partial-write-anthropic: 2/2 passed');
    // The scripted model's answers carry its ceil(chars / 4) estimate of their usage, so the token metrics are filled offline.
    const report = JSON.parse(await readFile(join(project.path, 'reports', 'faultline.json'), 'utf8')) as {
      cells: { metrics: { tokens: { input: number; output: number } } }[];
    };
    expect(report.cells).toHaveLength(4);
    for (const cell of report.cells)
      expect(Math.min(cell.metrics.tokens.input, cell.metrics.tokens.output)).toBeGreaterThan(0);
    // Each agent asked the model twice (the tool call, then the final answer) and the helpdesk three times (one lost answer, one resend).
    const replay = await inProcess(
      ['replay', 'faultline/examples/sdk-agents/ticket-partial-write.yaml', '--agent', 'agents-sdk', '--trial', '0'],
      { cwd: project.path },
    );
    expect(replay.stdout.match(/delivered http-\d+ to model:openai\.chat\.completions/g)).toHaveLength(2);
    expect(replay.stdout).toMatch(/fault partial_write\(lostAs=timeout\) on http-2/);
    expect(replay.stdout).toMatch(/agent ended: completed "Done: open_ticket\." \(claims helpdesk:req-42 succeeded\)/);
  });

  it('names a request that escapes interception (an SDK client built at module load) and how to fix it', async () => {
    const scenario = `name: module-level-client
services: [${join(EXAMPLES, '../helpdesk/code/helpdesk.service.ts')}]
model:
  api: openai
  plan: { steps: [{ tool: open_ticket, input: { requestId: req-42, subject: x } }] }
agent:
  kind: http
  task: Open a ticket.
  module: ${join(EXAMPLES, 'code/moduleLevelClient.ts')}
`;
    await writeFile(join(dir.path, 'escape.yaml'), scenario);
    // --workers 0: the verdict is the claim, not isolation (the example's run above uses a worker); spares a worker's start.
    const r = await inProcess(['run', 'escape.yaml', '--k', '1', '--workers', '0'], { cwd: dir.path });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain(
      "POST https://api.openai.com/v1/chat/completions escaped faultline's interception and was not sent",
    );
    expect(r.stdout).toContain('create it inside the agent function, or pass it the global fetch');
    const replay = await inProcess(['replay', 'escape.yaml', '--trial', '0'], { cwd: dir.path });
    expect(replay.stdout).toMatch(
      /escaped interception: POST https:\/\/api\.openai\.com\/v1\/chat\/completions \(refused, not sent\)/,
    );
  });
});
