// Types only: the CLI reads these for its help text without loading the fault schema.
import type { Fault, FaultKind } from '../faults/fault.js';

/**
 * Each fault kind as `--fault <kind>` names it: the kinds that need parameters get the
 * commonest ones. Any other parameters are written inline: `--fault '{kind: unavailable, status: 502}'`.
 */
export const SWEEP_FAULTS: { readonly [K in FaultKind]: Extract<Fault, { kind: K }> } = {
  timeout: { kind: 'timeout' },
  // Past the 10 s per-call timeout of the built-in configurations: a slow answer that commits unseen.
  latency: { kind: 'latency', ms: 15_000 },
  network: { kind: 'network', code: 'ECONNRESET' },
  rate_limit: { kind: 'rate_limit' },
  quota_exceeded: { kind: 'quota_exceeded' },
  unavailable: { kind: 'unavailable', status: 503 },
  partial_write: { kind: 'partial_write', lostAs: 'timeout' },
  duplicate: { kind: 'duplicate', copies: 2 },
  permission_denied: { kind: 'permission_denied', status: 403 },
  rejected: { kind: 'rejected' },
  not_found: { kind: 'not_found' },
  conflict: { kind: 'conflict' },
  server_error: { kind: 'server_error' },
  malformed: { kind: 'malformed' },
  // Past the per-call timeout and a backoff or two: a status query after a lost write still sees nothing.
  stale: { kind: 'stale', lagMs: 30_000 },
  empty: { kind: 'empty' },
  truncated: { kind: 'truncated', keep: 1 },
  wrong_value: { kind: 'wrong_value', path: 'status' },
  // Streamed model answers only: one whole event first, so the client has started reading.
  stream_cut: { kind: 'stream_cut', afterEvents: 1 },
  stream_stall: { kind: 'stream_stall', afterEvents: 1 },
  stream_malformed: { kind: 'stream_malformed', afterEvents: 1 },
  // The model's own mistakes: model answers only (a rule naming no tool passes every other request by).
  malformed_arguments: { kind: 'malformed_arguments' },
  invalid_arguments: { kind: 'invalid_arguments' },
  wrong_target: { kind: 'wrong_target' },
  unknown_tool: { kind: 'unknown_tool' },
  refusal: { kind: 'refusal' },
  content_filter: { kind: 'content_filter' },
  empty_text: { kind: 'empty_text' },
  garbled: { kind: 'garbled' },
  error_in_200: { kind: 'error_in_200' },
  replayed: { kind: 'replayed' },
  context_length: { kind: 'context_length' },
};

/** What a sweep injects when no `--fault` is given: the two that hurt most in ReliabilityBench. */
export const DEFAULT_SWEEP_FAULTS: readonly FaultKind[] = ['rate_limit', 'unavailable'];
