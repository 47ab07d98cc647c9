import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN } from '../cli/faultline.js';

const SERVER = fileURLToPath(new URL('./notesServer.mjs', import.meta.url));

/** What `faultline mcp-proxy --report` writes, as far as these tests read it. */
export interface ProxyReport {
  kind: string;
  calls: {
    call: string;
    tool: string;
    fault?: { kind: string };
    deliveries: number;
    outcome: string;
    clientSaw: string;
  }[];
  history: { type: string; call?: string; tool?: string; result?: string; risk?: string }[];
  checks: { name: string; verdict: { valid: unknown; message?: string } }[];
  risks?: Record<string, string>;
}

/**
 * The official SDK client, connected over stdio through the real proxy binary (started in `cwd`
 * with its `plan.yaml`, writing its report to `report`) to the notes server, whose notes go to
 * `cwd/notes.txt`.
 */
export async function proxyClient(cwd: string, report: string): Promise<Client> {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const env = { ...(process.env as Record<string, string>), NOTES_FILE: join(cwd, 'notes.txt') };
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp-proxy', '--plan', 'plan.yaml', '--report', report, '--', process.execPath, SERVER],
      cwd,
      env,
      stderr: 'pipe',
    }),
  );
  return client;
}
