import { HttpError, type Clock } from '../../core/index.js';
import type { CapacityConfig } from './CapacityConfig.js';
import { RateLimiter } from './RateLimiter.js';
import { stackless } from '../../core/stackless.js';

/** How a request got in, or why it did not. */
export type Admission =
  | { readonly kind: 'admitted'; readonly queuedMs: number; readonly release: () => void }
  | { readonly kind: 'refused'; readonly reason: 'rate_limited' | 'overloaded'; readonly error: HttpError };
export type AdmissionKind = Admission['kind'];

/** What the door saw, for the service's snapshot. */
export interface AdmissionStats {
  readonly admitted: number;
  readonly rateLimited: number;
  readonly overloaded: number;
  readonly maxInFlight: number;
  readonly maxQueued: number;
}

function retryAfterHeaders(ms: number | null): Record<string, string> {
  return ms === null ? {} : { 'retry-after': String(Math.max(1, Math.ceil(ms / 1000))), 'retry-after-ms': String(Math.ceil(ms)) };
}

/**
 * The door of a service with finite capacity: the rate limit first, then a slot, then a place
 * in the queue. A queued request waits on the clock for a slot; the caller may give up
 * meanwhile, and the service still does the work when its turn comes (wasted work, R18).
 */
export class AdmissionControl {
  readonly #limiter: RateLimiter | undefined;
  readonly #queue: (() => void)[] = [];
  #inFlight = 0;
  #admitted = 0;
  #rateLimited = 0;
  #overloaded = 0;
  #maxInFlight = 0;
  #maxQueued = 0;

  constructor(
    readonly config: CapacityConfig,
    private readonly clock: Clock,
  ) {
    this.#limiter = config.rateLimit ? new RateLimiter(config.rateLimit.perSecond, config.rateLimit.burst, clock) : undefined;
  }

  async enter(): Promise<Admission> {
    const rate = this.#limiter?.take();
    if (rate?.kind === 'limited') {
      this.#rateLimited++;
      const message = `Too Many Requests: over the rate limit of ${this.config.rateLimit?.perSecond ?? 0} per second`;
      return { kind: 'refused', reason: 'rate_limited', error: stackless(() => new HttpError(429, message, { error: { type: 'rate_limit_error', message } }, retryAfterHeaders(rate.retryAfterMs))) };
    }
    const max = this.config.maxConcurrent;
    const arrived = this.clock.now();
    if (max !== null && this.#inFlight >= max) {
      if (this.#queue.length >= this.config.queueLimit) {
        this.#overloaded++;
        const status = this.config.overloadStatus;
        const message = status === 503 ? 'Service Unavailable: overloaded' : 'Too Many Requests: overloaded';
        const type = status === 503 ? 'overloaded_error' : 'rate_limit_error';
        return { kind: 'refused', reason: 'overloaded', error: stackless(() => new HttpError(status, message, { error: { type, message } }, retryAfterHeaders(this.config.overloadRetryAfterMs))) };
      }
      // The slot is handed over by `release`, so `#inFlight` already counts this request.
      await new Promise<void>((resolve) => {
        this.#queue.push(resolve);
        this.#maxQueued = Math.max(this.#maxQueued, this.#queue.length);
      });
    } else {
      this.#inFlight++;
    }
    this.#admitted++;
    this.#maxInFlight = Math.max(this.#maxInFlight, this.#inFlight);
    let released = false;
    return {
      kind: 'admitted',
      queuedMs: this.clock.now() - arrived,
      release: () => {
        if (released) return;
        released = true;
        const next = this.#queue.shift();
        if (next) next();
        else this.#inFlight--;
      },
    };
  }

  get stats(): AdmissionStats {
    return { admitted: this.#admitted, rateLimited: this.#rateLimited, overloaded: this.#overloaded, maxInFlight: this.#maxInFlight, maxQueued: this.#maxQueued };
  }
}
