import type { z } from 'zod';
import type { Clock, NetworkLeg, OperationRef, OperationStatus, ToolContract } from '../core/index.js';
import type { ProcessTable } from './command/ProcessTable.js';
import type { EffectLedger } from './ledger.js';

/**
 * The part of the `World` a tool sees: its ledger and its fellow services. A narrow view,
 * so that this file need not import `World` (which imports it: an import cycle).
 */
export interface ToolWorld {
  readonly ledger: EffectLedger;
  readonly services: readonly { readonly name: string }[];
  /** The process groups command tools started this trial (R19). */
  readonly processes?: ProcessTable;
}

/** What a delivery gives the tool's business logic: the world, the time, the request's ids. */
export interface ToolContext extends DeliveryContext {
  readonly world: ToolWorld;
}

/** What every delivery carries, to a tool or to an HTTP route's `serve`: the time, the request's ids, the faults' demands. */
export interface DeliveryContext {
  readonly clock: Clock;
  /** The wire's id for this request; copies of a duplicate delivery share it. */
  readonly request: string;
  /** Sent in the request (as an `Idempotency-Key` header would be); the service decides whether to honour it. */
  readonly idempotencyKey?: string;
  /** Set by the wire's `server_error` fault: the service must fail with it after accepting the request, before committing. */
  readonly failure?: Error;
  /**
   * Set by a transport with a scenario `network`: sleeps one draw of this tool's latency on
   * `leg`, for a service that makes another round trip inside one call. Absent: no latency.
   */
  readonly travel?: (leg: NetworkLeg) => Promise<void>;
  /**
   * Set by a `stale` fault on a read or status query: answer from the service's state as it was
   * at this virtual time (ms since the epoch). A service that keeps no versions answers as it is.
   */
  readonly asOf?: number;
}

/**
 * A tool as the server side defines it: its contract plus the business logic that runs
 * against the world on every delivery. `run` throws `HttpError` for business errors.
 */
export interface ToolSpec<I = unknown, O = unknown> extends ToolContract {
  readonly input: z.ZodType<I>;
  /** The schema of its answers, where the service declares one: a `wrong_value` or `empty` lie is drawn from it. */
  readonly output?: z.ZodType;
  run(input: I, ctx: ToolContext): Promise<O> | O;
  status?(ref: OperationRef, ctx: ToolContext): Promise<OperationStatus> | OperationStatus;
}
