import type { z } from 'zod';
import type { Clock, NetworkLeg, Risk } from '../../core/index.js';
import type { CommandResult, CommandSpec } from '../command/runCommand.js';
import type { Effect } from '../ledger.js';
import type { CommonServiceOptions } from './serviceOptions.js';

/** What a tool's business logic works with, for one delivery. */
export interface ServiceContext<S, O> {
  /** The service's live state: read it, change it. It is the final snapshot `goal.state` compares. */
  readonly state: S;
  /** The service's options as the scenario set them, defaults filled. */
  readonly options: O & CommonServiceOptions;
  /** The service's name. */
  readonly service: string;
  /** The trial's virtual clock. */
  readonly clock: Clock;
  /** Virtual milliseconds since the Unix epoch. */
  now(): number;
  /** A fresh id, deterministic per trial: `id('tkt')` gives `tkt-1`, `tkt-2`, … */
  id(prefix: string): string;
  /**
   * Records a side effect in the world's ledger: what really happened, whatever the caller
   * is told. `key` is the business key that makes two effects "the same one" (the duplicates
   * checker counts effects per service, name and key).
   */
  effect(name: string, effect: { readonly key: string; readonly data?: unknown }): Effect;
  /** Another service's live state in the same world (`undefined` when it is not there, or keeps no state in memory). */
  peer<T = unknown>(name: string): T | undefined;
  /** The wire's id for this request; copies of a duplicate delivery share it. */
  readonly request: string;
  /** The key the request carried, if any (the service decides whether to honour it). */
  readonly idempotencyKey: string | undefined;
  /**
   * Runs a local command in its own process group (R19): on timeout SIGTERM to the group, the
   * grace period, then SIGKILL; output and exit status collected; recorded in the history, and
   * any process still alive at the trial's end fails the `process-cleanup` checker.
   */
  command(spec: CommandSpec): Promise<CommandResult>;
  /**
   * Sleeps one draw of this tool's network latency on `leg` (the scenario's `network`, as the
   * most specific level for this service, tool or HTTP route sets it; 0 ms without one): for a
   * service that makes several round trips inside one call. The transport already puts a
   * request leg before `run` and a response leg after it; a read-then-write service answers
   * its read with `await ctx.travel('response')` and sends its write with
   * `await ctx.travel('request')`, so a rival write can land in between.
   */
  travel(leg: NetworkLeg): Promise<void>;
}

/** One tool of a service: its contract (what the caller sees) and its business logic. */
export interface ToolDefinition<S, O, I, R = unknown> {
  /** What the model reads; a function of the options where they change it (a limit, say). */
  readonly description: string | ((options: O & CommonServiceOptions) => string);
  /** R4: `read` is retried freely; a `write` (side effect) is never auto-retried without an honoured key. */
  readonly risk: Risk;
  /** Strict structure only (R15); business rules belong in `check` and `run`. */
  readonly input: z.ZodType<I>;
  /** Checked against every successful answer; a mismatch is the service's bug, answered as a 500. */
  readonly output?: z.ZodType<R>;
  /** The input field holding the business request id (a client reference), for status queries (R21, R22). */
  readonly businessKey?: string;
  /** Overrides the service's `idempotency` switch for this tool (writes only). */
  readonly idempotency?: boolean;
  /** Validation made on arrival, before `processingMs` passes (rules relative to the time of the request). */
  check?(input: I, ctx: ServiceContext<S, O>): void;
  /** The business logic. Throw `ServiceError` for business errors. Writes run under the service's idempotency (R24). */
  run(input: I, ctx: ServiceContext<S, O>): R | Promise<R>;
  /**
   * Writes only: how a status query (R21) finds the operation by its business key, after the
   * idempotency key: a function returning the operation's result (or `undefined`: not found),
   * `false` for a tool that answers no status queries. Default: the result the tool returned
   * when it committed that business key.
   */
  readonly status?: false | ((businessKey: string, ctx: ServiceContext<S, O>) => unknown);
}

/** The typed internals a `ServiceInstance` is built from. */
export interface ServiceParts<S, O> {
  readonly name: string;
  initialState(options: O & CommonServiceOptions): S;
  snapshotOf(state: S, ctx: { readonly now: number; readonly options: O & CommonServiceOptions }): unknown;
  readonly tools: readonly (ToolDefinition<S, O, unknown> & { readonly name: string })[];
}
