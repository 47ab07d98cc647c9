/**
 * `mcp-proxy` runs end with the checkers: a naive MCP client (the official SDK's) that resends a
 * write whose answer was lost, and calls again inside a refusal's Retry-After, gets failing
 * verdicts naming the tool, the calls and the requests, on stderr and in the report, and exit 1.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitedOverStdio, faultlineOverStdio, type FaultlineOverStdio } from '../cli/faultlineOverStdio.js';

const SERVER = fileURLToPath(new URL('./notesServer.mjs', import.meta.url));

// set_note is idempotent by its annotations, but the plan says otherwise: the plan wins.
const PLAN = `
faults:
  - match: { tool: write_note, call: 1 }
    fault: { kind: partial_write, lostAs: timeout }
  - match: { tool: read_notes, call: 1 }
    fault: { kind: rate_limit, retryAfter: 30 }
risks: { set_note: write }
`;

const text = (r: unknown): string => (r as { content: { text: string }[] }).content[0]?.text ?? '';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faultline-mcp-verdicts-'));
  await writeFile(join(dir, 'plan.yaml'), PLAN);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The proxy run by a shell that says its exit code on stderr once it is gone. */
const proxied = (report: string): FaultlineOverStdio =>
  faultlineOverStdio(['mcp-proxy', '--plan', 'plan.yaml', '--report', report, '--', process.execPath, SERVER], {
    cwd: dir,
    env: { NOTES_FILE: join(dir, `${report}.notes`) },
  });
const exited = exitedOverStdio;

describe('mcp-proxy verdicts', () => {
  it('fails a client that resends a lost write and ignores Retry-After: duplicates, unknown-outcomes, retry-after, exit 1', async () => {
    const { transport, stderr } = proxied('naive.json');
    const client = new Client({ name: 'naive', version: '1.0.0' });
    await client.connect(transport);
    const note = { id: 'n1', text: 'one' };
    await expect(
      client.callTool({ name: 'write_note', arguments: note }, undefined, { timeout: 500 }),
    ).rejects.toMatchObject({ code: ErrorCode.RequestTimeout });
    expect(text(await client.callTool({ name: 'write_note', arguments: note }))).toBe('saved n1');
    const refused = await client.callTool({ name: 'read_notes', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(text(refused))).toMatchObject({
      error: { kind: 'rate_limit', status: 429, retryAfterMs: 30_000, headers: { 'retry-after': '30' } },
    });
    expect(text(await client.callTool({ name: 'read_notes', arguments: {} }))).toBe('n1: one\nn1: one\n');
    await client.close();

    expect(await exited(stderr), stderr()).toBe(1);
    const err = stderr();
    expect(err).toMatch(
      /✗ duplicates: write_note \(not idempotent\) reached the server 2 times with the same arguments \(calls call-1, call-2; requests req-\d+, req-\d+\): the client sent the same arguments again after call-1 \(unknown\)/,
    );
    expect(err).toMatch(
      /✗ unknown-outcomes: write_note call-2 \(req-\d+\) resent the arguments of call-1, whose outcome was unknown .* without reading what became of it first \(R21\)/,
    );
    expect(err).toMatch(
      /✗ retry-after: read_notes call-4 arrived at t=\d+ms, \d+ms after call-3 was refused \(rate_limit\) with Retry-After 30000ms/,
    );
    const report = JSON.parse(await readFile(join(dir, 'naive.json'), 'utf8')) as {
      checks: { name: string; verdict: { valid: unknown } }[];
    };
    expect(report.checks.map((c) => [c.name, c.verdict.valid])).toEqual([
      ['duplicates', false],
      ['unknown-outcomes', false],
      ['retry-after', false],
    ]);
  });

  it('passes a careful client: it reads before resending, and a non-idempotent write named by the plan is sent once', async () => {
    const { transport, stderr } = proxied('careful.json');
    const client = new Client({ name: 'careful', version: '1.0.0' });
    await client.connect(transport);
    await expect(
      client.callTool({ name: 'write_note', arguments: { id: 'n1', text: 'one' } }, undefined, { timeout: 500 }),
    ).rejects.toMatchObject({ code: ErrorCode.RequestTimeout });
    // Reconcile first: the read is refused with a Retry-After this client would honour, so it stops here.
    expect((await client.callTool({ name: 'read_notes', arguments: {} })).isError).toBe(true);
    expect(text(await client.callTool({ name: 'set_note', arguments: { id: 'n2', text: 'two' } }))).toBe('set n2');
    await client.close();
    expect(await exited(stderr), stderr()).toBe(0);
    expect(stderr()).toMatch(/verdicts\n {2}✓ duplicates\n {2}✓ unknown-outcomes\n {2}✓ retry-after/);
  });
});
