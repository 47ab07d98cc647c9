import {
  FaultlineError,
  FaultlineErrorCode,
  HttpError,
  IdSource,
  type Clock,
  type OperationRef,
  type OperationStatus,
} from '../../core/index.js';
import { AdmissionControl } from '../capacity/AdmissionControl.js';
import type { Service } from '../Service.js';
import { ProcessTable } from '../command/ProcessTable.js';
import { runCommand } from '../command/runCommand.js';
import { Operations } from '../services/Operations.js';
import type { ToolContext, ToolSpec } from '../tool.js';
import type { ServiceContext, ServiceParts, ToolDefinition } from './ToolDefinition.js';
import type { CommonServiceOptions, OptionsParse } from './serviceOptions.js';
import { StateVersions } from './StateVersions.js';
import { toolSpecOf } from './toolSpecOf.js';
import { ToolWrite, type ToolWriter } from './ToolWrite.js';

type Options<O> = O & CommonServiceOptions;

// Set by ServiceInstance's static block, which runs when the class is defined (before any instance exists).
let instanceParts: InstanceParts;

/**
 * One trial's copy of a declared service: fresh state from the definition, its own ids and
 * idempotency table. Writes run through the same `Operations` every built-in uses, so R24
 * (422 on reuse with other parameters, 409 while in flight, a retention window, the first
 * result replayed) and R21 status queries mean the same for a user's tool as for ours.
 */
export class ServiceInstance<S, O> implements Service {
  readonly name: string;
  readonly tools: readonly ToolSpec[];
  readonly state: S;
  readonly options: Options<O>;
  readonly #definition: ServiceParts<S, O>;
  readonly #clock: Clock;
  // The tables below are made when first used: most trials use few of a world's services.
  #ids: IdSource | undefined;
  readonly #ops: Operations;
  /** Past states, for `stale` reads (kept only when a trial's plan asks). */
  #versions: StateVersions<S> | undefined;
  /** For a world that keeps no process table of its own. */
  #orphans: ProcessTable | undefined;
  // The context's helpers that do not depend on the delivery: made at the first delivery, not at each.
  #now: (() => number) | undefined;
  #id: ((prefix: string) => string) | undefined;
  /** The door every delivery passes when the scenario gives the service finite capacity. */
  readonly #door: AdmissionControl | undefined;

  constructor(definition: ServiceParts<S, O>, clock: Clock, options: Options<O>) {
    this.#definition = definition;
    this.#clock = clock;
    this.name = definition.name;
    this.options = options;
    this.state = definition.initialState(options);
    this.#ops = new Operations(definition.name, clock, options);
    this.#door = options.capacity ? new AdmissionControl(options.capacity, clock) : undefined;
    this.tools = definition.tools.map((tool) => this.#spec(tool));
  }

  keepVersions(ms: number): void {
    (this.#versions ??= new StateVersions(this.#clock)).keep(ms, this.state);
  }

  snapshot(): unknown {
    return this.#definition.snapshotOf(this.state, { now: this.#clock.now(), options: this.options });
  }

  #spec(tool: ToolDefinition<S, O, unknown> & { readonly name: string }): ToolSpec {
    const write = tool.risk !== 'read';
    const honours = write && (tool.idempotency ?? this.#ops.honoursIdempotencyKeys);
    const field = tool.businessKey;
    // Without a business key or an honoured idempotency key, nothing could find the operation again.
    const queryable = write && tool.status !== false && (field !== undefined || honours);
    // One object per tool holds what its deliveries share, where seven closures and their context did (a world of the
    // five built-in services made about 8 KB of them per trial). `run` and `status` stay functions of their own.
    const served = new ServedTool(tool, this, write, honours, field);
    const run: ToolSpec['run'] = (input, toolCtx) => served.run(input, toolCtx);
    const status = queryable
      ? (ref: OperationRef, toolCtx: ToolContext): OperationStatus => served.status(ref, toolCtx)
      : undefined;
    const description = typeof tool.description === 'function' ? tool.description(this.options) : tool.description;
    return toolSpecOf(
      tool.name,
      description,
      tool.risk,
      tool.input,
      tool.output,
      honours,
      queryable,
      field,
      run,
      status,
    );
  }

  // What a tool reaches of its instance, without a closure per instance or per tool (the private parts of a class
  // are reachable only from its body).
  static {
    instanceParts = {
      clock: (i) => i.#clock,
      ops: (i) => i.#ops,
      context: (i, toolCtx) => i.#context(toolCtx),
      admit: (i, served, input, toolCtx) => i.#admit(served, input, toolCtx),
      settled: (i) => i.#versions?.record(i.state),
    };
  }

  /**
   * Runs one delivery through the service's capacity: refused at once (429 over the rate limit,
   * 503 when slots and queue are full), or holding a slot until it settles. A caller that gave
   * up meanwhile does not free the slot: the service still does the work (R18).
   */
  async #admit(served: ServedTool<S, O>, input: unknown, toolCtx: ToolContext): Promise<unknown> {
    const door = this.#door;
    if (!door) return served.serve(input, toolCtx);
    const admission = await door.enter();
    if (admission.kind === 'refused') throw admission.error;
    try {
      return await served.serve(input, toolCtx);
    } finally {
      admission.release();
    }
  }

  #context(toolCtx: ToolContext): ServiceContext<S, O> {
    const asOf = toolCtx.asOf;
    // Keys in the order they always had (a service may spread or list them).
    return {
      state: (asOf === undefined ? undefined : this.#versions?.at(asOf)) ?? this.state,
      options: this.options,
      service: this.name,
      clock: this.#clock,
      now: (this.#now ??= () => this.#clock.now()),
      id: (this.#id ??= (prefix) => (this.#ids ??= new IdSource()).next(prefix)),
      effect: (effect, { key, data }) => {
        if (typeof effect !== 'string' || effect === '' || typeof key !== 'string') {
          throw new FaultlineError(
            FaultlineErrorCode.ServiceInvalid,
            `service "${this.name}": ctx.effect(name, { key, data }) takes a name and a string key, got ${JSON.stringify([effect, key])}`,
          );
        }
        return this.#ops.commit(toolCtx, effect, key, data ?? null);
      },
      // Made per delivery, as they always were: a service can tell one function from another (a second reader's probe
      // compared them across deliveries), so sharing them would change what such a service records.
      peer: <T>(peer: string) =>
        (toolCtx.world.services.find((s) => s.name === peer) as Service | undefined)?.state as T | undefined,
      request: toolCtx.request,
      idempotencyKey: toolCtx.idempotencyKey,
      command: (spec) =>
        runCommand(spec, {
          clock: this.#clock,
          processes: toolCtx.world.processes ?? (this.#orphans ??= new ProcessTable()),
          service: this.name,
          request: toolCtx.request,
        }),
      travel: (leg) => toolCtx.travel?.(leg) ?? ARRIVED,
    };
  }
}

/** What a service instance's tools reach of it: its private parts, through functions made once for the module. */
interface InstanceParts {
  clock<S, O>(i: ServiceInstance<S, O>): Clock;
  ops<S, O>(i: ServiceInstance<S, O>): Operations;
  context<S, O>(i: ServiceInstance<S, O>, toolCtx: ToolContext): ServiceContext<S, O>;
  /** The delivery through the service's capacity (`ServiceInstance#admit`). */
  admit<S, O>(
    i: ServiceInstance<S, O>,
    served: ServedTool<S, O>,
    input: unknown,
    toolCtx: ToolContext,
  ): Promise<unknown>;
  /** After a write's commit, answered or thrown: past states kept for stale reads. */
  settled<S, O>(i: ServiceInstance<S, O>): void;
}
/**
 * One tool of one service instance: what its deliveries share, and the writer its writes' steps call
 * (`ToolWrite`). Each step has the shape (and the promise hops) it had as a closure of its own.
 */
class ServedTool<S, O> implements ToolWriter<S, O> {
  readonly tool: ToolDefinition<S, O, unknown> & { readonly name: string };
  readonly #instance: ServiceInstance<S, O>;
  readonly #write: boolean;
  readonly #honours: boolean;
  readonly #field: string | undefined;
  /** The result it returned for each business key it committed: the default status answer (R21). */
  #committed: Map<string, { readonly value: unknown; readonly at: number }> | undefined;

  constructor(
    tool: ToolDefinition<S, O, unknown> & { readonly name: string },
    instance: ServiceInstance<S, O>,
    write: boolean,
    honours: boolean,
    field: string | undefined,
  ) {
    this.tool = tool;
    this.#instance = instance;
    this.#write = write;
    this.#honours = honours;
    this.#field = field;
  }

  async answer(input: unknown, ctx: ServiceContext<S, O>): Promise<unknown> {
    return checkedOutput(this.#instance.name, this.tool, await this.tool.run(input, ctx));
  }

  committed(key: string, value: unknown): void {
    (this.#committed ??= new Map()).set(key, { value, at: instanceParts.clock(this.#instance).now() });
  }

  settled(): void {
    instanceParts.settled(this.#instance);
  }

  /** The service's work for one delivery, once admitted. */
  serve(input: unknown, toolCtx: ToolContext): unknown {
    const ctx = instanceParts.context(this.#instance, toolCtx);
    if (!this.#write) return this.answer(input, ctx);
    const key = businessKeyOf(input, this.#field);
    return instanceParts
      .ops(this.#instance)
      .write(this.tool.name, input, key, toolCtx, new ToolWrite(this, input, ctx, key), this.#honours);
  }

  run(input: unknown, toolCtx: ToolContext): unknown {
    // A stale read is the same request seen through an older state: it takes no second slot.
    if (!this.#write && toolCtx.asOf !== undefined)
      return this.answer(input, instanceParts.context(this.#instance, toolCtx));
    return instanceParts.admit(this.#instance, this, input, toolCtx);
  }

  status(ref: OperationRef, toolCtx: ToolContext): OperationStatus {
    const tool = this.tool;
    const find = typeof tool.status === 'function' ? tool.status : undefined;
    const ctx = instanceParts.context(this.#instance, toolCtx);
    const asOf = toolCtx.asOf;
    const committedBy = (businessKey: string): unknown => {
      const c = this.#committed?.get(businessKey);
      return c && (asOf === undefined || c.at <= asOf) ? c.value : undefined;
    };
    return instanceParts
      .ops(this.#instance)
      .status(ref, this.#field, (businessKey) => (find ? find(businessKey, ctx) : committedBy(businessKey)), asOf);
  }
}

/**
 * A trial's instance of `definition` with `options` as a scenario's `world.<name>` gives them.
 * @throws FaultlineError `FAULTLINE_CONFIG_INVALID` naming `world.<name>.<field>`.
 */
export function instantiateService<S, O>(
  definition: ServiceParts<S, O>,
  parse: (value: unknown) => OptionsParse<O>,
  clock: Clock,
  options: unknown,
): ServiceInstance<S, O> {
  const parsed = parse(options);
  if (!parsed.ok) {
    const lines = parsed.issues.map(
      (issue) => `world.${definition.name}${issue.startsWith('(root)') ? issue.slice('(root)'.length) : `.${issue}`}`,
    );
    throw new FaultlineError(
      FaultlineErrorCode.ConfigInvalid,
      `invalid options for service "${definition.name}":\n${lines.map((l) => `  - ${l}`).join('\n')}`,
      { issues: lines },
    );
  }
  return new ServiceInstance(definition, clock, parsed.value);
}

/** A leg without a network: already travelled. One settled promise for every such leg (awaiting it takes the same hop as a fresh one). */
const ARRIVED: Promise<void> = Promise.resolve();

function businessKeyOf(input: unknown, field: string | undefined): string | undefined {
  if (field === undefined || typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[field];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** A result its own output schema refuses is the service's bug: a 500 that says so. */
function checkedOutput(
  service: string,
  tool: { readonly name: string; readonly output?: ToolDefinition<never, never, unknown>['output'] },
  value: unknown,
): unknown {
  if (!tool.output) return value;
  const parsed = tool.output.safeParse(value);
  if (parsed.success) return parsed.data;
  const detail = parsed.error.issues
    .map((i) => `${i.path.map(String).join('.') || '(result)'}: ${i.message}`)
    .join('; ');
  throw new HttpError(
    500,
    `service "${service}" tool "${tool.name}" returned a result its output schema refuses: ${detail}`,
  );
}
