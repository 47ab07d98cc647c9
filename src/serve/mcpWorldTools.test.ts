import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/index.js';
import { createWorld, resolveServices } from '../world/createWorld.js';
import { annotationsOf, MCP_ORIGIN, mcpWorldTools } from './mcpWorldTools.js';

describe('mcpWorldTools', () => {
  it('annotates each risk so that mcp-proxy reads the same risk back (R4)', () => {
    expect(annotationsOf('read')).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(annotationsOf('idempotent-write')).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    expect(annotationsOf('write')).toMatchObject({ readOnlyHint: false, idempotentHint: false, destructiveHint: true });
  });

  it(
    "lists the world's tools with their JSON Schema, a status tool for those that answer status " +
      'queries, and one RPC service per world service',
    () => {
      const services = ['orders', 'email'] as const;
      const world = createWorld(new VirtualClock(0), {}, [...services]);
      const { services: http, tools } = mcpWorldTools(world, resolveServices([...services]));
      expect(http.map((s) => s.baseUrl)).toEqual([`${MCP_ORIGIN}/orders`, `${MCP_ORIGIN}/email`]);
      const create = tools.find((t) => t.name === 'create_order')!;
      expect(create).toMatchObject({
        tool: 'create_order',
        purpose: 'call',
        url: `${MCP_ORIGIN}/orders/tools/create_order`,
        inputSchema: { type: 'object', required: expect.arrayContaining(['clientReference']) },
      });
      expect(create.description).toMatch(/_meta\.idempotencyKey/);
      expect(tools.find((t) => t.name === 'create_order_status')).toMatchObject({
        tool: 'create_order',
        purpose: 'status',
        url: `${MCP_ORIGIN}/orders/tools/create_order/status`,
        annotations: { readOnlyHint: true },
      });
      expect(tools.some((t) => t.name === 'get_order_status')).toBe(false);
      expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    },
  );
});
