import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { faultline } from '../cli/faultline.js';
import { proxyClient, type ProxyReport } from './proxyClient.js';

/**
 * What the plan says reaches the client, a call the client gave up on while the proxy held it
 * is never sent, and tools' risks come from their annotations or the plan even when the client
 * never lists the tools: the official SDK client, the real proxy binary, a real stdio server.
 */

const text = (r: unknown): string => (r as { content: { text: string }[] }).content[0]?.text ?? '';
const notes = async (dir: string): Promise<string> => readFile(join(dir, 'notes.txt'), 'utf8').catch(() => '');

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function connect(plan: string): Promise<{ client: Client; dir: string; report: () => Promise<ProxyReport> }> {
  dir = await mkdtemp(join(tmpdir(), 'faultline-mcp-plan-'));
  const cwd = dir;
  await writeFile(join(cwd, 'plan.yaml'), plan);
  const client = await proxyClient(cwd, 'report.json');
  const report = async (): Promise<ProxyReport> => {
    await client.close();
    await expect
      .poll(async () => readFile(join(cwd, 'report.json'), 'utf8').catch(() => ''), { timeout: 60_000 })
      .toContain('faultline-mcp-proxy'); // a hang's bound only
    return JSON.parse(await readFile(join(cwd, 'report.json'), 'utf8')) as ProxyReport;
  };
  return { client, dir: cwd, report };
}

describe('faultline mcp-proxy: what the plan says reaches the client', () => {
  it("a refusal's tool error carries Retry-After, the plan's message, headers and body", async () => {
    const { client, report } = await connect(`
- match: { tool: write_note, call: 1 }
  fault: { kind: rate_limit, retryAfter: 2 }
- match: { tool: write_note, call: 2 }
  fault: { kind: rejected, message: the card was declined, headers: { x-request-id: req-7 }, body: { error: { code: card_declined } } }
- match: { tool: write_note, call: 3 }
  fault: { kind: unavailable, status: 503, headers: { Retry-After: "5" } }
`);
    const limited = await client.callTool({ name: 'write_note', arguments: { id: 'n1', text: 'one' } });
    expect(limited.isError).toBe(true);
    const limitedError = (JSON.parse(text(limited)) as { error: Record<string, unknown> }).error;
    expect(limitedError).toMatchObject({
      kind: 'rate_limit',
      status: 429,
      retryable: true,
      retryAfterMs: 2000,
      headers: { 'retry-after': '2' },
    });
    expect(limitedError['message']).toContain('Please try again in 2s');

    const declined = await client.callTool({ name: 'write_note', arguments: { id: 'n2', text: 'two' } });
    expect(JSON.parse(text(declined))).toMatchObject({
      error: {
        kind: 'invalid_argument',
        status: 422,
        retryable: false,
        headers: { 'x-request-id': 'req-7' },
        body: { error: { code: 'card_declined' } },
      },
    });
    expect(text(declined)).toContain('the card was declined');

    const down = await client.callTool({ name: 'write_note', arguments: { id: 'n3', text: 'three' } });
    expect(JSON.parse(text(down))).toMatchObject({
      error: { kind: 'unavailable', status: 503, retryAfterMs: 5000, headers: { 'retry-after': '5' } },
    });

    await report();
  });

  it('a call the client cancels while the proxy holds it for latency is never sent', async () => {
    const {
      client,
      dir: cwd,
      report,
    } = await connect(`
- match: { tool: write_note, call: 1 }
  fault: { kind: latency, ms: 1500 }
`);
    // The SDK client times out after 300 ms and sends notifications/cancelled.
    await expect(
      client.callTool({ name: 'write_note', arguments: { id: 'held', text: 'late' } }, undefined, { timeout: 300 }),
    ).rejects.toMatchObject({
      code: ErrorCode.RequestTimeout,
    });
    // Past the held 1.5 s: a later call goes through, and the cancelled one never wrote.
    await new Promise((r) => setTimeout(r, 1_800));
    const after = await client.callTool({ name: 'write_note', arguments: { id: 'next', text: 'ok' } });
    expect(text(after)).toBe('saved next');
    expect(await notes(cwd)).toBe('next: ok\n');
    const { calls } = await report();
    expect(calls).toEqual([
      {
        call: 'call-1',
        tool: 'write_note',
        fault: { rule: 0, kind: 'latency' },
        deliveries: 0,
        outcome: 'error',
        clientSaw: 'nothing',
      },
      { call: 'call-2', tool: 'write_note', deliveries: 1, outcome: 'ok', clientSaw: 'result' },
    ]);
  });
});

describe('faultline mcp-proxy: tool risks for a client that caches its tool list', () => {
  it('asks the server itself and reads idempotentHint/readOnlyHint when the client never lists', async () => {
    const { client, report } = await connect('[]\n');
    // No listTools: as a client that cached the list from an earlier session.
    for (const [name, args] of [
      ['set_note', { id: 'a', text: 'x' }],
      ['write_note', { id: 'b', text: 'y' }],
      ['read_notes', {}],
    ] as const) {
      const r = await client.callTool({ name, arguments: args });
      expect(r.isError ?? false).toBe(false);
    }
    const { history } = await report();
    expect(history.filter((e) => e.type === 'tool_call').map((e) => [e.tool, e.risk])).toEqual([
      ['set_note', 'idempotent-write'],
      ['write_note', 'write'],
      ['read_notes', 'read'],
    ]);
  });

  it("the plan's risks win over the annotations, and the report keeps them", async () => {
    const { client, report } = await connect(`
faults: []
risks: { write_note: idempotent-write, set_note: write }
`);
    await client.listTools();
    await client.callTool({ name: 'write_note', arguments: { id: 'a', text: 'x' } });
    await client.callTool({ name: 'set_note', arguments: { id: 'b', text: 'y' } });
    const r = await report();
    expect(r.risks).toEqual({ write_note: 'idempotent-write', set_note: 'write' });
    expect(r.history.filter((e) => e.type === 'tool_call').map((e) => e.risk)).toEqual(['idempotent-write', 'write']);
  });

  it('a bad risk in the plan is refused with exit 2, naming the path', async () => {
    dir = await mkdtemp(join(tmpdir(), 'faultline-mcp-plan-'));
    await writeFile(join(dir, 'plan.yaml'), 'faults: []\nrisks: { write_note: safe }\n');
    const run = await faultline(
      ['mcp-proxy', '--plan', 'plan.yaml', '--', process.execPath, join(dir, 'never-started.mjs')],
      { cwd: dir },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('plan.yaml: invalid fault plan');
    expect(run.stderr).toContain('risks.write_note');
  });
});
