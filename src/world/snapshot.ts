import type { Effect } from './ledger.js';

/** The world's final state: what checkers compare against the goal (R29). */
export interface WorldSnapshot {
  /** Per service, its state as plain data keyed by business key, in canonical key order. */
  readonly services: Readonly<Record<string, unknown>>;
  readonly ledger: readonly Effect[];
  /** The key-value checkpoint store's entries in key order; absent when the trial wrote none. */
  readonly kv?: Readonly<Record<string, string>>;
  /** sha256 of the canonical JSON of `services` and `ledger` (and `kv`, when present). */
  readonly hash: string;
}
