// A small MCP server over stdio: write_note appends a line to $NOTES_FILE (its side effect,
// visible from outside), read_notes reads them back. Plain JavaScript, so `node` runs it as is.
import { appendFileSync, readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const file = process.env.NOTES_FILE;
if (!file) throw new Error('set NOTES_FILE');
const server = new McpServer({ name: 'notes', version: '1.0.0' });
server.registerTool(
  'write_note',
  { description: 'Append a note', inputSchema: { id: z.string(), text: z.string() } },
  ({ id, text }) => {
    appendFileSync(file, `${id}: ${text}\n`);
    return { content: [{ type: 'text', text: `saved ${id}` }] };
  },
);
server.registerTool('read_notes', { description: 'Read every note', annotations: { readOnlyHint: true } }, () => {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // No notes yet.
  }
  return { content: [{ type: 'text', text }] };
});
// Waits until the client cancels it (or 10 s), and notes which: a cancel must reach the server.
server.registerTool(
  'slow_note',
  { description: 'Wait, then note', inputSchema: { id: z.string() } },
  ({ id }, extra) =>
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ content: [{ type: 'text', text: 'done' }] }), 10_000);
      extra.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        appendFileSync(file, `${id}: cancelled\n`);
        resolve({ content: [{ type: 'text', text: 'cancelled' }] });
      });
    }),
);
// Setting a note twice leaves one: the server says so in its annotations (idempotent, not destructive).
server.registerTool(
  'set_note',
  {
    description: 'Set a note',
    inputSchema: { id: z.string(), text: z.string() },
    annotations: { idempotentHint: true, destructiveHint: false },
  },
  ({ id, text }) => {
    appendFileSync(file, `${id}= ${text}\n`);
    return { content: [{ type: 'text', text: `set ${id}` }] };
  },
);
await server.connect(new StdioServerTransport());
