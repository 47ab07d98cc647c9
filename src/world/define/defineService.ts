import type { z } from 'zod';
import { FaultlineError, FaultlineErrorCode, RISKS, type Clock, type Risk } from '../../core/index.js';
import type { Service } from '../Service.js';
import { copyJsonTree, NOT_JSON } from './copyJsonTree.js';
import { nonJsonAt } from './jsonData.js';
import { SERVICE_HTTP_METHODS, type ServiceHttp } from './ServiceHttp.js';
import { describeThrown } from '../../core/describeThrown.js';
import { instantiateService } from './ServiceInstance.js';
import {
  CommonServiceOptionsSchema,
  describeOptions,
  parseOptions,
  type CommonServiceOptions,
} from './serviceOptions.js';
import type { ServiceParts, ToolDefinition } from './ToolDefinition.js';
import { isZodSchema, objectShape } from './zodLike.js';

/** What `defineService` takes. */
export interface ServiceDefinitionInput<S, O, T extends Record<string, unknown>> {
  /** A lowercase slug; the key of the service's state in world snapshots and in `world:` options. */
  readonly name: string;
  readonly description?: string;
  /** The service's own options (besides `idempotency`, `retentionMs`, `processingMs`), as a zod object. */
  readonly options?: z.ZodObject & z.ZodType<O>;
  /** JSON-serialisable initial state: a value (copied for every trial) or a function of the options. */
  readonly state: S | ((options: O & CommonServiceOptions) => S);
  /** The state as the final snapshot shows it (default: the state itself), for state that depends on the clock. */
  snapshot?(state: S, ctx: { readonly now: number; readonly options: O & CommonServiceOptions }): unknown;
  readonly tools: { readonly [K in keyof T]: ToolDefinition<S, O, T[K]> };
  /** The same service over HTTP, in the API's own shape, for `faultline/msw` and `faultline/nock`. */
  readonly http?: ServiceHttp;
}

const kService = Symbol.for('faultline.service');

/** What a definition says about one tool, for listings and schemas (the logic stays inside). */
export interface ToolSummary {
  readonly name: string;
  readonly description: string | ((options: never) => string);
  readonly risk: Risk;
  readonly input: z.ZodType;
}

/**
 * A validated service definition: what `defineService` returns and scenarios name in
 * `services`. Each trial calls `instantiate` for a fresh copy with its own state.
 */
export interface ServiceDefinition {
  readonly [kService]: true;
  readonly name: string;
  readonly description: string;
  /** The options a scenario's `world.<name>` may set, the common ones included. */
  readonly optionsSchema: z.ZodType;
  readonly tools: readonly ToolSummary[];
  readonly http: ServiceHttp | undefined;
  /**
   * A fresh instance on `clock` with `options` (unparsed).
   * @throws FaultlineError `FAULTLINE_CONFIG_INVALID` naming `world.<name>.<field>`.
   */
  instantiate(clock: Clock, options?: unknown): Service;
}

/** Whether `value` came from `defineService` (in this copy of faultline or another: the brand is a global symbol). */
export const isServiceDefinition = (value: unknown): value is ServiceDefinition =>
  typeof value === 'object' && value !== null && (value as { [kService]?: unknown })[kService] === true;

const SLUG = /^[a-z0-9][a-z0-9-]*$/;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Declares a stateful mock service: its state, its tools and their business logic, its
 * idempotency (R24) and status queries (R21), and optionally its HTTP routes. The five
 * built-in services are declared with it too.
 *
 * @throws FaultlineError `FAULTLINE_SERVICE_INVALID` naming the path that is wrong.
 * @example
 * export default defineService({
 *   name: 'helpdesk',
 *   state: {} as Record<string, { subject: string }>,
 *   tools: {
 *     create_ticket: {
 *       description: 'Open a ticket', risk: 'write', businessKey: 'requestId',
 *       input: z.object({ requestId: z.string(), subject: z.string() }).strict(),
 *       run(input, ctx) {
 *         const id = ctx.id('tkt');
 *         ctx.state[id] = { subject: input.subject };
 *         ctx.effect('ticket.created', { key: input.requestId, data: { id } });
 *         return { id };
 *       },
 *     },
 *   },
 * });
 */
export function defineService<S, O = Record<never, never>, T extends Record<string, unknown> = Record<string, unknown>>(
  input: ServiceDefinitionInput<S, O, T>,
): ServiceDefinition {
  const problems = problemsOf(input);
  if (problems.length > 0) {
    const name =
      typeof (input as { name?: unknown } | null)?.name === 'string' ? ` "${(input as { name: string }).name}"` : '';
    throw new FaultlineError(
      FaultlineErrorCode.ServiceInvalid,
      `invalid service${name}:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
      { issues: problems },
    );
  }
  const own = input.options;
  const optionsSchema = describeOptions(own);
  const state = input.state;
  const initialState = (options: O & CommonServiceOptions): S => {
    let value: S;
    try {
      value = typeof state === 'function' ? (state as (o: O & CommonServiceOptions) => S)(options) : state;
    } catch (error) {
      // The user's code: a refusal naming the service (it runs when a scenario is loaded), never a crash.
      throw new FaultlineError(
        FaultlineErrorCode.ServiceInvalid,
        `service "${input.name}": the state function threw ${describeThrown(error)}`,
      );
    }
    // One walk checks and copies; only a refused state pays for `nonJsonAt`'s message.
    const copy = copyJsonTree(value);
    if (copy !== NOT_JSON) return copy;
    const bad = nonJsonAt(value, 'state');
    if (bad)
      throw new FaultlineError(
        FaultlineErrorCode.ServiceInvalid,
        `service "${input.name}": the state is not JSON data: ${bad}`,
      );
    return structuredClone(value);
  };
  const snapshot = input.snapshot;
  const parse = parseOptions<O>(own);
  const tools = Object.entries(input.tools as Record<string, ToolDefinition<S, O, unknown>>).map(([name, tool]) =>
    Object.freeze({ ...tool, name }),
  );
  const parts: ServiceParts<S, O> = {
    name: input.name,
    initialState,
    snapshotOf: (s, ctx) => {
      if (!snapshot) return s;
      try {
        return snapshot(s, ctx);
      } catch (error) {
        throw new ServiceCodeError(`service "${input.name}": its snapshot threw ${describeThrown(error)}`);
      }
    },
    tools,
  };
  return Object.freeze({
    [kService]: true as const,
    name: input.name,
    description: input.description ?? '',
    optionsSchema,
    tools: Object.freeze(
      tools.map(({ name, description, risk, input: schema }) =>
        Object.freeze({ name, description, risk, input: schema }),
      ),
    ),
    http: input.http,
    instantiate: (clock: Clock, options?: unknown) => instantiateService(parts, parse, clock, options),
  });
}

/** Everything wrong with a definition, each as `path: what was expected`. */
function problemsOf(input: unknown): string[] {
  if (typeof input !== 'object' || input === null)
    return [`expected an object with name, state and tools, got ${input === null ? 'null' : typeof input}`];
  const def = input as Record<string, unknown>;
  const out: string[] = [];
  if (typeof def['name'] !== 'string' || !SLUG.test(def['name']))
    out.push(`name: expected a lowercase slug such as "helpdesk", got ${show(def['name'])}`);
  if (def['description'] !== undefined && typeof def['description'] !== 'string')
    out.push('description: expected a string');
  const optionShape = objectShape(def['options']);
  if (def['options'] !== undefined && !optionShape)
    out.push('options: expected a zod 4 object schema (z.object({ ... }))');
  else if (optionShape) {
    const clash = Object.keys(optionShape).filter((k) => k in CommonServiceOptionsSchema.shape);
    if (clash.length > 0)
      out.push(
        `options: ${clash.join(', ')} ${clash.length === 1 ? 'is' : 'are'} common to every service; ` +
          `leave ${clash.length === 1 ? 'it' : 'them'} out`,
      );
  }
  if (!('state' in def)) out.push('state: required (the initial state, JSON data, or a function returning it)');
  else if (typeof def['state'] !== 'function') {
    const bad = nonJsonAt(def['state'], 'state');
    if (bad)
      out.push(
        `${bad.startsWith('state') ? '' : 'state: '}${bad}: expected JSON data (objects, arrays, strings, finite numbers, booleans, null)`,
      );
  }
  if (def['snapshot'] !== undefined && typeof def['snapshot'] !== 'function')
    out.push('snapshot: expected a function (state, ctx) => view');
  const tools = def['tools'];
  if (typeof tools !== 'object' || tools === null || Array.isArray(tools))
    out.push('tools: expected an object of tool definitions keyed by tool name');
  else {
    const entries = Object.entries(tools);
    if (entries.length === 0) out.push('tools: expected at least one tool');
    for (const [name, tool] of entries) out.push(...toolProblems(name, tool));
  }
  if (def['http'] !== undefined)
    out.push(...httpProblems(def['http'], typeof tools === 'object' && tools !== null ? Object.keys(tools) : []));
  return out;
}

/** The name of the status tool every world has (R21): a service's own tool may not take it. */
const RESERVED_TOOL_NAMES = ['query_operation_status'];

function httpProblems(http: unknown, tools: readonly string[]): string[] {
  if (typeof http !== 'object' || http === null || Array.isArray(http))
    return ['http: expected { baseUrl, routes, error? }'];
  const h = http as Record<string, unknown>;
  const out: string[] = [];
  const base = h['baseUrl'];
  if (typeof base !== 'string' || !URL.canParse(base) || !/^https?:$/.test(new URL(base).protocol))
    out.push(
      `http.baseUrl: expected an absolute http(s) URL such as "https://helpdesk.example.test/api", got ${show(base)}`,
    );
  if (h['error'] !== undefined && typeof h['error'] !== 'function')
    out.push('http.error: expected a function (error) => { body, headers?, status? }');
  const routes = h['routes'];
  if (!Array.isArray(routes)) return [...out, 'http.routes: expected a list of { method, path, tool } routes'];
  routes.forEach((route: unknown, i) => {
    const at = `http.routes[${i}]`;
    if (typeof route !== 'object' || route === null) {
      out.push(`${at}: expected { method, path, tool }`);
      return;
    }
    const r = route as Record<string, unknown>;
    if (!(SERVICE_HTTP_METHODS as readonly unknown[]).includes(r['method']))
      out.push(`${at}.method: expected one of ${SERVICE_HTTP_METHODS.join(', ')}, got ${show(r['method'])}`);
    if (typeof r['path'] !== 'string' || !r['path'].startsWith('/'))
      out.push(`${at}.path: expected a path starting with "/", got ${show(r['path'])}`);
    if (typeof r['tool'] !== 'string' || !tools.includes(r['tool']))
      out.push(`${at}.tool: no tool ${show(r['tool'])} in this service (tools: ${tools.join(', ')})`);
    if (r['purpose'] !== undefined && r['purpose'] !== 'call' && r['purpose'] !== 'status')
      out.push(`${at}.purpose: expected "call" or "status", got ${show(r['purpose'])}`);
    if (
      r['status'] !== undefined &&
      !(Number.isInteger(r['status']) && (r['status'] as number) >= 200 && (r['status'] as number) <= 299)
    )
      out.push(`${at}.status: expected a success status from 200 to 299, got ${show(r['status'])}`);
    for (const f of ['input', 'output'] as const)
      if (r[f] !== undefined && typeof r[f] !== 'function') out.push(`${at}.${f}: expected a function`);
  });
  return out;
}

function toolProblems(name: string, tool: unknown): string[] {
  const at = `tools.${name}`;
  if (!TOOL_NAME.test(name)) return [`${at}: a tool name is 1-64 letters, digits, "_" or "-" (what model APIs accept)`];
  if (RESERVED_TOOL_NAMES.includes(name))
    return [`${at}: the name is reserved for the status tool every world has (R21); name your tool otherwise`];
  if (typeof tool !== 'object' || tool === null) return [`${at}: expected a tool definition object`];
  const t = tool as Record<string, unknown>;
  const out: string[] = [];
  if (typeof t['description'] !== 'function' && (typeof t['description'] !== 'string' || t['description'] === '')) {
    out.push(`${at}.description: expected a non-empty string (the model reads it)`);
  }
  if (!(RISKS as readonly unknown[]).includes(t['risk']))
    out.push(`${at}.risk: expected one of ${RISKS.map((r) => `"${r}"`).join(', ')} (R4), got ${show(t['risk'])}`);
  if (!isZodSchema(t['input']))
    out.push(`${at}.input: expected a zod 4 schema for the tool's input (z.object({ ... }).strict())`);
  if (t['output'] !== undefined && !isZodSchema(t['output'])) out.push(`${at}.output: expected a zod 4 schema`);
  if (typeof t['run'] !== 'function') out.push(`${at}.run: expected a function (input, ctx) => result`);
  if (t['check'] !== undefined && typeof t['check'] !== 'function')
    out.push(`${at}.check: expected a function (input, ctx) => void`);
  if (t['businessKey'] !== undefined && typeof t['businessKey'] !== 'string')
    out.push(`${at}.businessKey: expected the name of an input field`);
  else if (typeof t['businessKey'] === 'string') {
    // Status queries find the operation by this field of the input: a name the input lacks finds nothing.
    const fields = objectShape(t['input']);
    if (fields && !Object.hasOwn(fields, t['businessKey']))
      out.push(
        `${at}.businessKey: "${t['businessKey']}" is not a field of the tool's input (${Object.keys(fields).join(', ') || 'no fields'})`,
      );
  }
  if (t['idempotency'] !== undefined && typeof t['idempotency'] !== 'boolean')
    out.push(`${at}.idempotency: expected true or false`);
  if (t['status'] !== undefined && t['status'] !== false && typeof t['status'] !== 'function')
    out.push(`${at}.status: expected false or a function (businessKey, ctx) => result | undefined`);
  if (t['risk'] === 'read' && (t['status'] !== undefined || t['idempotency'] !== undefined))
    out.push(`${at}: a read has no idempotency or status query; declare risk "write" or "idempotent-write"`);
  return out;
}

/** Thrown by a service's own code at the end of a trial: the trial fails with it; it is not faultline's crash. */
export class ServiceCodeError extends Error {}

const show = (v: unknown): string => (typeof v === 'string' ? `"${v}"` : v === undefined ? 'nothing' : typeof v);
