/** One committed side effect: what really happened, whatever any caller was told. */
export interface Effect {
  readonly seq: number;
  /** Virtual milliseconds since the Unix epoch, when the service committed it. */
  readonly at: number;
  readonly service: string;
  /** What happened, `service.verb` style: `order.created`, `payment.charged`, `email.sent`. */
  readonly effect: string;
  /** The business key that makes two effects "the same one": a client reference, a dedupe id. */
  readonly key: string;
  readonly request: string;
  readonly idempotencyKey?: string;
  readonly data: unknown;
}

export type NewEffect = Omit<Effect, 'seq'>;

/** The append-only list of effects every service commits to. The duplicates checker reads it. */
export class EffectLedger {
  readonly #effects: Effect[] = [];

  commit(effect: NewEffect): Effect {
    const committed: Effect = { seq: this.#effects.length, ...effect };
    this.#effects.push(committed);
    return committed;
  }

  get effects(): readonly Effect[] {
    return this.#effects;
  }

  get length(): number {
    return this.#effects.length;
  }
}
