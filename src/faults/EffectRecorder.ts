import type { Correlation, History } from '../core/index.js';
import type { Effect, EffectLedger } from '../world/ledger.js';

/**
 * Turns ledger entries into `effect` events as they appear. Concurrent requests share one
 * ledger, so each entry is attributed by its own `request`, not by which delivery happened
 * to finish first; `origin` adds what the transport knows of that request.
 */
export class EffectRecorder {
  #seen: number;

  constructor(
    private readonly ledger: EffectLedger,
    private readonly history: History,
    private readonly origin: (effect: Effect) => Correlation & { readonly method?: string; readonly url?: string },
  ) {
    this.#seen = ledger.length;
  }

  /** Records every entry committed since the last call. */
  recordNew(): void {
    const effects = this.ledger.effects;
    for (; this.#seen < effects.length; this.#seen++) {
      const e = effects[this.#seen]!;
      this.history.stamp({
        seq: 0,
        t: 0,
        type: 'effect',
        request: e.request,
        service: e.service,
        effect: e.effect,
        key: e.key,
        ledgerSeq: e.seq,
        ...this.origin(e),
        ...(e.idempotencyKey === undefined ? {} : { idempotencyKey: e.idempotencyKey }),
      });
    }
  }
}
