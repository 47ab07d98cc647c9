import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN } from './faultline.js';

/** A faultline command an MCP client talks to over stdio; the shell that runs it says its exit code on stderr. */
export interface FaultlineOverStdio {
  readonly transport: StdioClientTransport;
  readonly stderr: () => string;
}

/** `faultline ARGS` as an MCP stdio server (`mcp-serve`, `mcp-proxy`), started when the client connects. */
export function faultlineOverStdio(
  args: readonly string[],
  options: { readonly cwd: string; readonly env?: Readonly<Record<string, string>> },
): FaultlineOverStdio {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
  const env = { ...(process.env as Record<string, string>), NO_COLOR: '1', ...options.env };
  const transport = new StdioClientTransport({
    command: 'sh',
    args: ['-c', `${quoted}; echo "exit=$?" >&2`],
    cwd: options.cwd,
    env,
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  return { transport, stderr: () => err };
}

/** The exit code the command's shell reported, once it has (-1 if it never did within 30 s). */
export async function exitedOverStdio(stderr: () => string): Promise<number> {
  for (let i = 0; i < 600 && !/exit=\d+/.test(stderr()); i++) await new Promise((r) => setTimeout(r, 50));
  return Number(/exit=(\d+)/.exec(stderr())?.[1] ?? -1);
}
