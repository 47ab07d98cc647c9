import { z } from 'zod';
import type { Risk } from '../core/index.js';
import type { ServiceDefinition } from '../world/define/defineService.js';
import { findTool } from '../world/deliver.js';
import type { ToolSpec } from '../world/tool.js';
import type { World } from '../world/World.js';
import type { HttpService } from '../faults/http/HttpFaults.js';
import { rpcRoutes } from '../faults/http/serviceRoutes.js';

/** Where the world's tools live for the fault engine when an MCP client calls them: never a socket of its own. */
export const MCP_ORIGIN = 'https://mcp.faultline.test';

/** The `_meta` field of a `tools/call` that carries the call's idempotency key (as the `Idempotency-Key` header would). */
export const MCP_KEY_META = 'idempotencyKey';

/** MCP's tool annotations, as `tools/list` gives them. */
export interface McpAnnotations {
  readonly title?: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** One tool as an MCP client sees it, and where the fault engine routes its calls. */
export interface McpWorldTool {
  /** As `tools/list` names it: the tool's own name, or `{tool}_status` for its status query. */
  readonly name: string;
  /** The world tool (a fault plan's `match.tool`). */
  readonly tool: string;
  readonly purpose: 'call' | 'status';
  /** The RPC route the engine serves it at, under `MCP_ORIGIN`. */
  readonly url: string;
  readonly description: string;
  readonly inputSchema: { readonly type: 'object'; readonly [key: string]: unknown };
  readonly annotations: McpAnnotations;
}

/**
 * R4 in MCP's words: a read is `readOnlyHint`; a write is neither idempotent nor known to be
 * additive (the spec's defaults, which `mcp-proxy` reads back as `write`); an idempotent write
 * repeats harmlessly. Nothing faultline serves reaches beyond the trial's world.
 */
export function annotationsOf(risk: Risk): McpAnnotations {
  return {
    readOnlyHint: risk === 'read',
    destructiveHint: risk !== 'read',
    idempotentHint: risk !== 'write',
    openWorldHint: false,
  };
}

/** A tool's input as JSON Schema; a schema zod cannot render (a transform, say) is any object. */
function inputSchemaOf(tool: ToolSpec): McpWorldTool['inputSchema'] {
  try {
    const schema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    const { $schema: _drop, ...rest } = schema;
    return rest['type'] === 'object' ? (rest as McpWorldTool['inputSchema']) : { type: 'object' };
  } catch {
    return { type: 'object' };
  }
}

const STATUS_INPUT = {
  type: 'object',
  properties: {
    idempotencyKey: { type: 'string', description: 'The idempotency key the call was sent with.' },
    businessKey: { type: 'string', description: "The business request id in the call's input (its client reference)." },
    input: { type: 'object', description: "The call's input, as sent." },
  },
  additionalProperties: false,
} as const;

/**
 * The world's tools as MCP tools, with the routes the fault engine serves them at: one RPC
 * service per world service under `MCP_ORIGIN/{service}`, so a fault plan's rules, call counts
 * and the history are those of any other transport. A tool that answers status queries (R21)
 * also gets `{tool}_status`, unless the world already has a tool of that name.
 */
export function mcpWorldTools(
  world: World,
  definitions: readonly ServiceDefinition[],
): { services: HttpService[]; tools: McpWorldTool[] } {
  const services: HttpService[] = [];
  const tools: McpWorldTool[] = [];
  const taken = new Set(world.tools.map((t) => t.name));
  for (const definition of definitions) {
    const baseUrl = `${MCP_ORIGIN}/${encodeURIComponent(definition.name)}`;
    services.push({ name: definition.name, baseUrl, routes: rpcRoutes(world, definition) });
    for (const summary of definition.tools) {
      const tool = findTool(world, summary.name);
      const keys = tool.honoursIdempotencyKeys
        ? ` Its service honours idempotency keys: send one in the call's _meta.${MCP_KEY_META}, the same on every retry.`
        : '';
      tools.push({
        name: tool.name,
        tool: tool.name,
        purpose: 'call',
        url: `${baseUrl}/tools/${tool.name}`,
        description: `${tool.description}${keys}`,
        inputSchema: inputSchemaOf(tool),
        annotations: annotationsOf(tool.risk),
      });
      const status = `${tool.name}_status`;
      if (!tool.canQueryStatus || taken.has(status)) continue;
      tools.push({
        name: status,
        tool: tool.name,
        purpose: 'status',
        url: `${baseUrl}/tools/${tool.name}/status`,
        description:
          `What became of a ${tool.name} call whose answer was lost (R21): by its idempotency ` +
          `key, its business key, or its input. Answers { state: succeeded | failed | pending | not_found }.`,
        inputSchema: STATUS_INPUT,
        annotations: annotationsOf('read'),
      });
    }
  }
  return { services, tools };
}
