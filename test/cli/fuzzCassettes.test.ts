/**
 * Bad cassettes, the class (issue 43): a cassette `replay --cassette` names, or one a scenario
 * names (`model.cassette`) under `replay`, `explore` and `sweep`, that is missing, empty, a
 * folder, a device, not JSON, not a cassette, another API's, a future version, with a duplicate
 * key, nested past any sane depth or holding an entry no API answers with. Each is bad input:
 * exit 2 before any trial, naming the flag (or the file) and what is wrong; never a trial judged
 * `crashed` and a failed goal, as if the agent had failed. In process, through the CLI's own entry.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';
import { httpAgentOpensTicket, OPEN_TICKET_PLAN } from './ticketScenario.js';

const EXAMPLES = fileURLToPath(new URL('../../scenarios/examples/', import.meta.url));

const scenario = (cassette?: string): string => `name: cassette-agent
services: [${join(EXAMPLES, 'helpdesk/code/helpdesk.service.ts')}]
model:
  api: openai
${cassette === undefined ? '' : `  cassette: ${JSON.stringify(cassette)}\n`}  ${OPEN_TICKET_PLAN.trimStart()}${httpAgentOpensTicket(join(EXAMPLES, 'sdk-agents/code/openaiAgent.ts'))}`;

const entry = (status: number): unknown => ({
  request: { method: 'POST', path: '/v1/chat/completions', body: {} },
  response: { status, headers: {}, body: {} },
});
const cassette = (fields: Record<string, unknown>): string =>
  JSON.stringify({ faultline: 'cassette', version: 1, api: 'openai', entries: [], ...fields });

/** A bad cassette: the path to name (relative to the project folder) and what the refusal says. */
interface Bad {
  readonly cls: string;
  readonly path: string;
  readonly says: RegExp;
}

/** Writes each class's file into the project folder. */
async function writeBad(dir: string): Promise<Bad[]> {
  const files: [string, string, string, RegExp][] = [
    ['empty', 'empty.json', '', /the file is empty; expected a cassette/],
    ['blank', 'blank.json', '  \n', /the file is empty; expected a cassette/],
    ['not JSON', 'text.json', 'not json at all', /not valid JSON: /],
    ['not a cassette', 'other.json', JSON.stringify({ hello: 'world' }), /invalid cassette:\n {2}- faultline: /],
    [
      'another API',
      'chat.json',
      JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [] }),
      /invalid cassette:/,
    ],
    [
      'a future version',
      'future.json',
      cassette({ version: 9 }),
      /version: 9 is a cassette from a newer faultline; this one reads version 1/,
    ],
    [
      'a duplicate key',
      'dup.json',
      '{"faultline":"cassette","version":1,"api":"openai","api":"anthropic","entries":[]}',
      /:1:\d+: .*the key "api" appears twice/,
    ],
    [
      'nested 20,000 deep',
      'deep.json',
      cassette({
        entries: [{ request: { method: 'POST', path: '/x', body: '['.repeat(20_000) + ']'.repeat(20_000) } }],
      }).replace(/"\[+\]+"/, '['.repeat(20_000) + ']'.repeat(20_000)),
      /nest/i,
    ],
    [
      'an entry with status 700',
      'status.json',
      cassette({ entries: [entry(700)] }),
      /entries\[0\]\.response\.status: /,
    ],
  ];
  await mkdir(join(dir, 'a-folder.json'), { recursive: true });
  for (const [, path, text] of files) await writeFile(join(dir, path), text);
  return [
    ...files.map(([cls, path, , says]) => ({ cls, path, says })),
    { cls: 'missing', path: 'nowhere.json', says: /nowhere\.json: no such file/ },
    { cls: 'a folder', path: 'a-folder.json', says: /a-folder\.json: a folder; expected a cassette file/ },
    { cls: '/dev/null', path: '/dev/null', says: /\/dev\/null: not a regular file/ },
  ];
}

let dir: Awaited<ReturnType<typeof tempDir>>;
let bad: Bad[];
beforeAll(async () => {
  dir = await tempDir('fuzz-cassettes');
  bad = await writeBad(dir.path);
  await writeFile(join(dir.path, 'agent.yaml'), scenario());
  await writeFile(join(dir.path, 'anthropic.json'), cassette({ api: 'anthropic' }));
});
afterAll(async () => {
  await dir.cleanup();
});

// The built entry (dist/, as the binary runs it), imported once by Node: not src/'s graph through vitest's transforms.
const cli = async (args: readonly string[], cwd: string): Promise<{ code: number; out: string; err: string }> => {
  const r = await inProcess(args, { cwd });
  return { code: r.code ?? -1, out: r.stdout, err: r.stderr };
};

const refused = (r: { code: number; out: string; err: string }, says: RegExp, names: RegExp): void => {
  expect(r.err, r.out).toMatch(names);
  expect(r.err).toMatch(says);
  expect(r.code).toBe(2);
  expect(r.out).not.toMatch(/crashed|goal-state/);
  expect(r.err).not.toMatch(/\n\s+at /);
};

describe('a bad cassette is refused before any trial (exit 2), naming who named it and what is wrong', () => {
  it('replay --cassette F: every class', { timeout: 120_000 }, async () => {
    for (const b of bad)
      refused(await cli(['replay', 'agent.yaml', '--cassette', b.path], dir.path), b.says, /error: --cassette /);
    refused(
      await cli(['replay', 'agent.yaml', '--cassette', ''], dir.path),
      /an empty path; expected a cassette file/,
      /error: --cassette: /,
    );
    refused(
      await cli(['replay', 'agent.yaml', '--cassette', 'anthropic.json'], dir.path),
      /recorded from the anthropic API, but cassette-agent's model\.api is "openai"/,
      /error: --cassette /,
    );
  });

  it(
    "replay --cassette of an infra-error trial's recording judges nothing: it says so, exit 4",
    { timeout: 60_000 },
    async () => {
      const trial = {
        scenario: 'cassette-agent',
        config: 'rulebook',
        trialIndex: 3,
        seed: 77,
        infraError: 'the model provider failed 3 times (2 retries); last: it answered 529',
      };
      await writeFile(join(dir.path, 'infra.json'), cassette({ trial }));
      const r = await cli(['replay', 'agent.yaml', '--trial', '3', '--cassette', 'infra.json'], dir.path);
      expect(r.out).toContain(
        'cassette-agent: this trial was not judged: the provider failed (the model provider failed 3 times (2 retries); last: it answered 529); nothing to replay',
      );
      expect(r.out).not.toMatch(/goal-state|crashed/);
      expect(r.code).toBe(4);
    },
  );

  it(
    'a cassette the scenario names, under replay, explore and sweep (drawn by fast-check)',
    { timeout: 120_000 },
    async () => {
      const commands: Record<string, string[]> = {
        replay: ['replay', 'named.yaml'],
        explore: ['explore', 'named.yaml', '--runs', '1'],
        sweep: ['sweep', 'named.yaml', '--fault', 'timeout', '--lambda', '0.1', '--k', '1', '--reporter', 'console'],
      };
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...bad.filter((b) => b.path !== '/dev/null')),
          fc.constantFrom('replay', 'explore', 'sweep'),
          async (b, command) => {
            await writeFile(join(dir.path, 'named.yaml'), scenario(b.path.startsWith('/') ? b.path : `./${b.path}`));
            refused(
              await cli(commands[command]!, dir.path),
              b.says,
              /error: .*(named\.yaml: model\.cassette: )?.*\.json/,
            );
          },
        ),
        { numRuns: 12, seed: 43 },
      );
    },
  );

  it(
    'a named cassette recorded from the other API than the model speaks, under explore and sweep (every trial would fail)',
    { timeout: 60_000 },
    async () => {
      await writeFile(join(dir.path, 'other-api.yaml'), scenario('./anthropic.json'));
      for (const args of [
        ['explore', 'other-api.yaml', '--runs', '1'],
        ['sweep', 'other-api.yaml', '--fault', 'timeout', '--lambda', '0.1', '--k', '1', '--reporter', 'console'],
      ]) {
        refused(
          await cli(args, dir.path),
          /anthropic\.json: the cassette was recorded from the anthropic API, but model\.api is "openai"/,
          /error: /,
        );
      }
    },
  );
});
