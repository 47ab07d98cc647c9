/**
 * Issue 43's items that were fixed and tested below the CLI only: one case each through the CLI's
 * entry in this process (./inProcess.ts, the compiled code the binary runs), from a temp
 * project, asserting the exit code and what the user reads. The item's number is in each name.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcess } from './inProcess.js';
import { userProject } from './userProject.js';

let project: Awaited<ReturnType<typeof userProject>>;
beforeAll(async () => {
  project = await userProject('seams43', {});
});
afterAll(() => project.cleanup());

const cli = (args: readonly string[]) => inProcess(args, { cwd: project.path });
const write = (name: string, text: string) => writeFile(join(project.path, name), text);

const STEP =
  '      - name: order\n        tool: create_order\n' +
  '        input: { clientReference: ref-1, item: book, quantity: 1, amountCents: 1500 }\n';
/** A scripted scenario creating one order, with `extra` top-level YAML before its agent. */
const scripted = (name: string, extra = '', agentExtra = ''): string =>
  `name: ${name}\n${extra}agent:\n  kind: scripted\n${agentExtra}  task: Create order ref-1\n  plan:\n    steps:\n${STEP}`;

describe('issue 43, through the CLI', () => {
  it('#18: run --help says what --workers 0 gives up', async () => {
    const r = await cli(['run', '--help']);
    expect(r.code).toBe(0);
    const help = r.stdout.replace(/\s+/g, ' ');
    expect(help).toContain('0: one after the other in one process');
    expect(help).toContain('without isolation');
    expect(help).toContain('an exhausted heap or a native crash ends the run');
  });

  it('#50: http: on a scripted agent is refused at load, exit 2, naming the file and the key', async () => {
    await write('http-scripted.yaml', scripted('http-scripted', 'http: { adapter: nock }\n'));
    const r = await cli(['run', 'http-scripted.yaml', '--k', '1', '--out', 'out-50']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('http-scripted.yaml');
    expect(r.stderr).toMatch(/http: sets how an "http" or "command" agent's HTTP calls are met/);
    expect(r.stderr).toContain('agent.kind is "scripted"');
  });

  it('#38: arrival uniform over 1e308 ms is refused at load (exit 2), not drawn forever', async () => {
    await write('arrival.yaml', scripted('arrival', 'agents: 2\narrival: { kind: uniform, overMs: 1e308 }\n'));
    const r = await cli(['run', 'arrival.yaml', '--k', '1', '--out', 'out-38']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('arrival.yaml');
    expect(r.stderr).toMatch(/arrival\.overMs: expected at most 9007199254740991 ms/);
  });
});
