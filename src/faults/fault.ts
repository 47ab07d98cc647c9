import { z } from 'zod';

/**
 * What the wire does to one delivery. Plain data: serialisable, printable in reports,
 * and small enough for `explore` to shrink.
 */
export const FaultSchema = z.discriminatedUnion('kind', [
  /** Never answers; the caller's own timeout decides. Not delivered. */
  z.object({ kind: z.literal('timeout') }).strict(),
  /** Delivered at once, answered `ms` later: past the caller's timeout it commits with the answer lost. */
  z.object({ kind: z.literal('latency'), ms: z.number().int().nonnegative() }).strict(),
  /** The connection fails before the request reaches the service. */
  z.object({ kind: z.literal('network'), code: z.enum(['ECONNRESET', 'ECONNREFUSED', 'EPIPE']) }).strict(),
  /**
   * 429 with an optional `Retry-After` (R9): a number of seconds, sent as delta-seconds or,
   * with `retryAfterAs: 'http-date'`, as the HTTP-date that many seconds after the answer;
   * a string is sent verbatim (an absolute HTTP-date, or garbage to test parsing).
   */
  z.object({
    kind: z.literal('rate_limit'),
    retryAfter: z.union([z.number().nonnegative(), z.string()]).optional(),
    retryAfterAs: z.enum(['seconds', 'http-date']).optional(),
  }).strict(),
  /** 429 `insufficient_quota`: waiting will not help (R5). */
  z.object({ kind: z.literal('quota_exceeded') }).strict(),
  // Multi-value literals, so a bad status is reported as "expected one of 500|502|…".
  z.object({ kind: z.literal('unavailable'), status: z.literal([500, 502, 503, 504, 529]) }).strict(),
  /** The service commits, then the answer is lost (R18). */
  z.object({ kind: z.literal('partial_write'), lostAs: z.enum(['timeout', 'network', 'unavailable']) }).strict(),
  /** The request reaches the service `copies` times (2 or more); the caller sees the first answer. */
  z.object({ kind: z.literal('duplicate'), copies: z.number().int().min(2).max(10), concurrent: z.boolean().optional() }).strict(),
  z.object({ kind: z.literal('permission_denied'), status: z.literal([401, 403]) }).strict(),
  /** 422: the service refuses the request on business grounds. Not delivered. */
  z.object({ kind: z.literal('rejected'), message: z.string().optional() }).strict(),
  z.object({ kind: z.literal('not_found') }).strict(),
  z.object({ kind: z.literal('conflict') }).strict(),
  /**
   * Delivered, and the service fails while handling it (500) without committing. A service
   * that honours idempotency keys stores that 500 and replays it for the same key (R24).
   */
  z.object({ kind: z.literal('server_error') }).strict(),
  /** The service commits, but the answer is corrupt (truncated JSON). */
  z.object({ kind: z.literal('malformed') }).strict(),
]);
export type Fault = z.infer<typeof FaultSchema>;
export type FaultKind = Fault['kind'];
export type FaultOf<K extends FaultKind> = Extract<Fault, { kind: K }>;

export const FAULT_KINDS = FaultSchema.options.map((o) => o.shape.kind.value) as readonly FaultKind[];
