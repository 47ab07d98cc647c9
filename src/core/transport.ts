import type { z } from 'zod';
import type { Risk } from './kinds.js';

/**
 * What the caller side (runtime, agent) may know about a tool: its contract, never the
 * service behind it. `world` implements it with business logic; `faults` puts the wire
 * in between; a user's own runtime can call any `Transport` the same way ours does.
 */
export interface ToolContract {
  readonly name: string;
  readonly description: string;
  readonly risk: Risk;
  /** Strict structure only (R15); business rules are the service's to enforce. */
  readonly input: z.ZodType;
  /** The service replays the first result for a reused idempotency key (R24). */
  readonly honoursIdempotencyKeys: boolean;
  /** The tool answers status queries by operation reference (R21). */
  readonly canQueryStatus: boolean;
  /** The input field holding the business request id (client reference), if any. */
  readonly businessKeyField?: string;
  /**
   * Retries the tool's own client (an SDK) makes below the caller, unseen (R10): the OpenAI
   * and Anthropic SDKs retry 408, 409, 429 and 5xx twice by default.
   */
  readonly clientRetries?: number;
}

/** Names one operation for a status query: by its idempotency key, business key, or both. */
export interface OperationRef {
  readonly op: string;
  readonly idempotencyKey?: string;
  readonly businessKey?: string;
  readonly input: unknown;
}

/** The business status of an operation, as the service reports it (R21). */
export type OperationStatus =
  | { readonly state: 'succeeded'; readonly value: unknown }
  | { readonly state: 'failed'; readonly status: number; readonly message: string }
  | { readonly state: 'pending' }
  /** No record yet: not proof that the request never arrived (R21). */
  | { readonly state: 'not_found' };
export type OperationState = OperationStatus['state'];

/** The two legs of a round trip: the request on its way to the service, the answer on its way back. */
export type NetworkLeg = 'request' | 'response';

/** One attempt as it leaves the caller. */
export interface WireRequest {
  readonly request: string;
  readonly tool: string;
  readonly purpose: 'call' | 'status';
  /** The tool input, or an `OperationRef` when `purpose` is `status`. */
  readonly input: unknown;
  readonly call: string;
  readonly attempt: number;
  readonly idempotencyKey?: string;
}

export interface Transport {
  readonly tools: readonly ToolContract[];
  /**
   * Resolves with the tool's answer (an `OperationStatus` for status queries) or rejects
   * with what a real client would throw: `HttpError`, a Node system error, a parse error.
   * A request that is never answered stays pending until `signal` aborts it.
   */
  send(request: WireRequest, signal?: AbortSignal): Promise<unknown>;
  /**
   * True when the transport lets go of a send's signal once the send settles (no listener left
   * on it, no later read), so the caller may hand a signal that never fired to its next send.
   */
  readonly releasesSignal?: boolean;
}
