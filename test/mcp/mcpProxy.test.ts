import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline } from '../cli/faultline.js';
import { proxyClient, type ProxyReport } from './proxyClient.js';

const PLAN = `
- match: { tool: write_note, call: 1 }
  fault: { kind: unavailable, status: 503 }
- match: { tool: write_note, call: 2 }
  fault: { kind: partial_write, lostAs: unavailable }
- match: { tool: write_note, call: 3 }
  fault: { kind: malformed }
- match: { tool: write_note, call: 4 }
  fault: { kind: duplicate, copies: 2 }
- match: { tool: write_note, call: 5 }
  fault: { kind: timeout }
`;

const text = (r: unknown): string => (r as { content: { text: string }[] }).content[0]?.text ?? '';

describe('faultline mcp-proxy, with the official MCP SDK client and a stdio MCP server', () => {
  let dir: string;
  let client: Client;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'faultline-mcp-'));
    await writeFile(join(dir, 'plan.yaml'), PLAN);
    client = await proxyClient(dir, 'out/report.json');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('turns faults into tool errors, lets a partial write commit, and reports both', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['read_notes', 'set_note', 'slow_note', 'write_note']);

    // R16: an injected 503 is a tool error the client reads as the tool's answer, not a protocol error.
    const refused = await client.callTool({ name: 'write_note', arguments: { id: 'n1', text: 'one' } });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(text(refused))).toMatchObject({ error: { kind: 'unavailable', status: 503, retryable: true } });

    // R18: the server commits, the answer is lost; the client sees a tool error.
    const lost = await client.callTool({ name: 'write_note', arguments: { id: 'n2', text: 'two' } });
    expect(lost.isError).toBe(true);
    expect(text(lost)).toContain('the tool may have run');

    // The one protocol-level fault: the answer arrives corrupt.
    await expect(client.callTool({ name: 'write_note', arguments: { id: 'n3', text: 'three' } })).rejects.toMatchObject(
      { code: ErrorCode.InternalError },
    );

    const twice = await client.callTool({ name: 'write_note', arguments: { id: 'n4', text: 'four' } });
    expect(twice).toMatchObject({ content: [{ type: 'text', text: 'saved n4' }] });

    const dropped = client.callTool({ name: 'write_note', arguments: { id: 'n5', text: 'five' } }, undefined, {
      timeout: 300,
    });
    await expect(dropped).rejects.toBeInstanceOf(McpError);
    await expect(dropped).rejects.toMatchObject({ code: ErrorCode.RequestTimeout });

    // The client gives up and cancels: the server knows the call by the proxy's id, and still gets the cancel.
    await expect(
      client.callTool({ name: 'slow_note', arguments: { id: 's1' } }, undefined, { timeout: 300 }),
    ).rejects.toMatchObject({ code: ErrorCode.RequestTimeout });
    await expect
      .poll(async () => readFile(join(dir, 'notes.txt'), 'utf8'), { timeout: 60_000 })
      .toContain('s1: cancelled'); // a hang's bound only

    const notes = await client.callTool({ name: 'read_notes', arguments: {} });
    expect(text(notes)).toBe('n2: two\nn3: three\nn4: four\nn4: four\ns1: cancelled\n');

    await client.close();
    const report = JSON.parse(await readFile(join(dir, 'out/report.json'), 'utf8')) as ProxyReport;
    expect(report.kind).toBe('faultline-mcp-proxy');
    expect(report.calls).toEqual([
      {
        call: 'call-1',
        tool: 'write_note',
        fault: { rule: 0, kind: 'unavailable' },
        deliveries: 0,
        outcome: 'error',
        clientSaw: 'tool_error',
      },
      {
        call: 'call-2',
        tool: 'write_note',
        fault: { rule: 1, kind: 'partial_write' },
        deliveries: 1,
        outcome: 'unknown',
        clientSaw: 'tool_error',
      },
      {
        call: 'call-3',
        tool: 'write_note',
        fault: { rule: 2, kind: 'malformed' },
        deliveries: 1,
        outcome: 'unknown',
        clientSaw: 'protocol_error',
      },
      {
        call: 'call-4',
        tool: 'write_note',
        fault: { rule: 3, kind: 'duplicate' },
        deliveries: 2,
        outcome: 'ok',
        clientSaw: 'result',
      },
      {
        call: 'call-5',
        tool: 'write_note',
        fault: { rule: 4, kind: 'timeout' },
        deliveries: 0,
        outcome: 'unknown',
        clientSaw: 'nothing',
      },
      { call: 'call-6', tool: 'slow_note', deliveries: 1, outcome: 'unknown', clientSaw: 'nothing' },
      { call: 'call-7', tool: 'read_notes', deliveries: 1, outcome: 'ok', clientSaw: 'result' },
    ]);
    expect(report.history.filter((e) => e.type === 'outcome' && e.call === 'call-2')).toMatchObject([
      { result: 'unknown' },
    ]);
    expect(report.history.filter((e) => e.type === 'tool_call').map((e) => e.risk)).toEqual([
      'write',
      'write',
      'write',
      'write',
      'write',
      'write',
      'read',
    ]);
    // The checkers judge the session: the duplicate delivery ran write_note twice; every unknown outcome was followed by a read.
    expect(report.checks.map((c) => [c.name, c.verdict.valid])).toEqual([
      ['duplicates', false],
      ['unknown-outcomes', true],
      ['retry-after', true],
    ]);
    expect(report.checks[0]!.verdict.message).toBe(
      'write_note (not idempotent) reached the server 2 times with the same arguments (calls call-4; requests req-6): a duplicate delivery (fault rule 3) made the server run call-4 more than once',
    );
  });
});

describe('faultline mcp-proxy with a bad plan', () => {
  it('exits 2 naming the file and the path inside it, and never starts the server', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'faultline-mcp-bad-'));
    try {
      await writeFile(
        join(dir, 'plan.yaml'),
        'faults:\n  - match: { tool: write_note }\n    fault: { kind: unavailable, status: 501 }\n',
      );
      const run = await faultline(
        ['mcp-proxy', '--plan', 'plan.yaml', '--', process.execPath, join(dir, 'never-started.mjs')],
        { cwd: dir },
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('plan.yaml: invalid fault plan');
      expect(run.stderr).toContain('faults[0].fault.status');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
