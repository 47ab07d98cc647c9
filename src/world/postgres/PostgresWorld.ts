import type { Clock } from '../../core/index.js';
import type { Effect } from '../ledger.js';
import { World } from '../World.js';
import { num, type PgDatabase } from './PgDatabase.js';
import { PgLedger } from './PgLedger.js';

interface EffectRow {
  seq: number;
  at: string;
  service: string;
  effect: string;
  key: string;
  request: string;
  idempotency_key: string | null;
  data: string;
}

/**
 * A world whose orders, payments and effect ledger live in Postgres under one world id.
 * Several `PostgresWorld`s opened on the same id (say, one per server process) share that
 * state; `snapshotAsync` reads the final state and the ledger from the tables.
 */
export class PostgresWorld extends World {
  override readonly ledger = new PgLedger();

  constructor(
    clock: Clock,
    readonly db: PgDatabase,
    readonly id: string,
  ) {
    super(clock);
  }

  protected override async effectsAsync(): Promise<readonly Effect[]> {
    const rows = await this.db.query<EffectRow>(
      'SELECT seq, at, service, effect, key, request, idempotency_key, data FROM faultline_effects WHERE world = $1 ORDER BY seq',
      [this.id],
    );
    return rows.map((r) => ({
      seq: r.seq,
      at: num(r.at),
      service: r.service,
      effect: r.effect,
      key: r.key,
      request: r.request,
      ...(r.idempotency_key === null ? {} : { idempotencyKey: r.idempotency_key }),
      data: JSON.parse(r.data) as unknown,
    }));
  }
}
