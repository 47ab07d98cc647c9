import { FaultlineError, FaultlineErrorCode } from '../../core/index.js';
import { EffectLedger, type Effect, type NewEffect } from '../ledger.js';

/**
 * The in-process view of a Postgres world's ledger. The effects table is the truth (the
 * snapshot reads it); this mirror holds what this process's transactions committed, in the
 * seq order the database gave them, so the wire can tie each effect to its request in the
 * history as it does for an in-memory world.
 */
export class PgLedger extends EffectLedger {
  readonly #mirror: Effect[] = [];

  /**
   * In-memory services commit here synchronously; their effects cannot take a seq from the
   * database, so a Postgres world refuses them rather than keep a ledger with holes.
   */
  override commit(effect: NewEffect): Effect {
    throw new FaultlineError(
      FaultlineErrorCode.Internal,
      `service "${effect.service}" keeps its state in memory; on the Postgres backend only orders and payments commit effects`,
    );
  }

  /** Effects a committed transaction wrote. */
  mirror(effects: readonly Effect[]): void {
    this.#mirror.push(...[...effects].sort((a, b) => a.seq - b.seq));
  }

  override get effects(): readonly Effect[] {
    return this.#mirror;
  }

  override get length(): number {
    return this.#mirror.length;
  }
}
