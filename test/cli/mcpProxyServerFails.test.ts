import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from './faultline.js';

/**
 * mcp-proxy in front of a server that is not an MCP server on stdio: one that exits at once (even
 * with 0) or writes what is not JSON-RPC. The client (this test) keeps its end open, as a real
 * client does: the proxy must end with a clear error and exit 2, not hang or exit 0 in silence.
 * Through the binary: mcp-proxy proxies the process's own stdin and stdout.
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-proxy-fails-'));
  await writeFile(join(dir, 'plan.yaml'), '[]\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function proxy(server: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'mcp-proxy', '--plan', 'plan.yaml', '--', ...server], {
    cwd: dir,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.resume();
  // The client's end stays open; only a hang reaches this bound.
  const bound = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(bound);
      child.stdin.destroy();
      resolve({ code, stderr });
    });
  });
}

describe('mcp-proxy whose server is not an MCP server on stdio', () => {
  it('a server that exits at once with 0: exit 2, naming it', { timeout: 30_000 }, async () => {
    const r = await proxy([process.execPath, '-e', '']);
    expect(r.stderr).toMatch(/mcp-proxy: the MCP server ".*" exited with code 0 before the client closed/);
    expect(r.code).toBe(2);
  });

  it('a server that writes garbage and stays: exit 2, naming what it wrote', { timeout: 30_000 }, async () => {
    const r = await proxy([process.execPath, '-e', "console.log('hello, not json'); setInterval(() => {}, 1000)"]);
    expect(r.stderr).toMatch(/mcp-proxy: the MCP server ".*" wrote what is not a JSON-RPC message/);
    expect(r.code).toBe(2);
  });
});
