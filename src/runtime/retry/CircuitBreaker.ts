import type { Clock } from '../../core/index.js';
import type { CircuitBreakerConfig } from '../config.js';

/** Where the breaker stands. `half-open`: one probe is out, every other send fails fast. */
export type CircuitState =
  | { readonly kind: 'closed'; readonly failures: number }
  | { readonly kind: 'open'; readonly since: number }
  | { readonly kind: 'half-open' };
export type CircuitStateKind = CircuitState['kind'];

/** What the breaker says about one send. */
export type CircuitAdmission =
  { readonly kind: 'send'; readonly probe: boolean } | { readonly kind: 'refuse'; readonly retryInMs: number };
export type CircuitAdmissionKind = CircuitAdmission['kind'];

/**
 * A consecutive-failures circuit breaker on the trial's clock. It stops a client from sending
 * to a service that keeps failing: the sends it refuses put no load on the service, and one
 * probe after `openMs` finds out whether the service is back.
 */
export class CircuitBreaker {
  #state: CircuitState = { kind: 'closed', failures: 0 };
  #opened = 0;

  constructor(
    readonly config: CircuitBreakerConfig,
    private readonly clock: Clock,
  ) {}

  get state(): CircuitState {
    return this.#state;
  }

  /** Times the breaker has opened. */
  get opened(): number {
    return this.#opened;
  }

  admit(): CircuitAdmission {
    const s = this.#state;
    switch (s.kind) {
      case 'closed':
        return { kind: 'send', probe: false };
      case 'half-open':
        return { kind: 'refuse', retryInMs: 0 };
      case 'open': {
        const left = s.since + this.config.openMs - this.clock.now();
        if (left > 0) return { kind: 'refuse', retryInMs: left };
        this.#state = { kind: 'half-open' };
        return { kind: 'send', probe: true };
      }
    }
  }

  /** The answer to a send it let through: `failed` when the service is in trouble, not for a business error. */
  record(failed: boolean, probe: boolean): void {
    const s = this.#state;
    if (!failed) {
      if (probe || s.kind === 'closed') this.#state = { kind: 'closed', failures: 0 };
      return;
    }
    if (probe || (s.kind === 'closed' && s.failures + 1 >= this.config.failureThreshold)) {
      this.#state = { kind: 'open', since: this.clock.now() };
      this.#opened++;
    } else if (s.kind === 'closed') {
      this.#state = { kind: 'closed', failures: s.failures + 1 };
    }
  }
}
