import type { ToolSpec } from './tool.js';

/** A stateful mock service. It commits effects to the world's ledger and exposes tools. */
export interface Service {
  readonly name: string;
  readonly tools: readonly ToolSpec[];
  /** Its state as plain data keyed by business key. */
  snapshot(): unknown;
  /** Its live state, for peers in the same world (`ctx.peer(name)`); services declared with `defineService` have it. */
  readonly state?: unknown;
  /** Its state read from outside memory (a database); `World.snapshotAsync` prefers it to `snapshot`. */
  snapshotAsync?(): Promise<unknown>;
  /**
   * Keep the versions of its state reaching `ms` virtual ms back, so that a read with `asOf`
   * (a `stale` fault) can answer from them. Asked only by a trial whose plan has a stale rule.
   */
  keepVersions?(ms: number): void;
}
