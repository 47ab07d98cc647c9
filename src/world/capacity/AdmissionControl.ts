import { HttpError, type Clock } from '../../core/index.js';
import type { CapacityConfig, CapacityDrop } from './CapacityConfig.js';
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
  return ms === null
    ? {}
    : { 'retry-after': String(Math.max(1, Math.ceil(ms / 1000))), 'retry-after-ms': String(Math.ceil(ms)) };
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
  /** The trial's start, from which drops are timed. */
  readonly #origin: number;
  readonly #armed = new Set<CapacityDrop>();

  constructor(
    readonly config: CapacityConfig,
    private readonly clock: Clock,
  ) {
    this.#limiter = config.rateLimit
      ? new RateLimiter(config.rateLimit.perSecond, config.rateLimit.burst, clock)
      : undefined;
    this.#origin = clock.now();
  }

  /** Slots now: the configured number, or a drop's while one lasts (`null`: no limit). */
  #max(): number | null {
    const drop = this.#dropAt(this.clock.now());
    return drop === undefined ? this.config.maxConcurrent : drop.maxConcurrent;
  }

  #dropAt(now: number): CapacityDrop | undefined {
    const at = now - this.#origin;
    return this.config.drops?.find((d) => at >= d.fromMs && at < d.toMs);
  }

  /** Hands free slots to the queue, first come first served. */
  #pump(): void {
    for (;;) {
      const max = this.#max();
      if (this.#queue.length === 0) return;
      if (max !== null && this.#inFlight >= max) {
        const drop = this.#dropAt(this.clock.now());
        if (drop !== undefined) this.#wakeAfter(drop);
        return;
      }
      this.#inFlight++;
      const admit = this.#queue.shift()!;
      // Handed over in a turn of the clock's own (a simulated clock's), one per request in queue order: the request
      // admitted runs after the work of the one that freed the slot, however many microtask hops that work takes.
      const turn = this.clock.nextTurn?.(-1);
      if (turn) void turn.then(admit);
      else admit();
    }
  }

  /**
   * A request queued during a drop waits for slots that come back when the drop ends, not
   * only when one is released: one timer per drop moves the queue then.
   */
  #wakeAfter(drop: CapacityDrop): void {
    if (this.#armed.has(drop)) return;
    this.#armed.add(drop);
    this.clock.setTimer(this.#origin + drop.toMs - this.clock.now(), () => this.#pump());
  }

  async enter(): Promise<Admission> {
    const rate = this.#limiter?.take();
    if (rate?.kind === 'limited') {
      this.#rateLimited++;
      const message = `Too Many Requests: over the rate limit of ${this.config.rateLimit?.perSecond ?? 0} per second`;
      return {
        kind: 'refused',
        reason: 'rate_limited',
        error: stackless(
          () =>
            new HttpError(
              429,
              message,
              { error: { type: 'rate_limit_error', message } },
              retryAfterHeaders(rate.retryAfterMs),
            ),
        ),
      };
    }
    const max = this.#max();
    const arrived = this.clock.now();
    if (max !== null && this.#inFlight >= max) {
      if (this.#queue.length >= this.config.queueLimit) {
        this.#overloaded++;
        const status = this.config.overloadStatus;
        const message = status === 503 ? 'Service Unavailable: overloaded' : 'Too Many Requests: overloaded';
        const type = status === 503 ? 'overloaded_error' : 'rate_limit_error';
        return {
          kind: 'refused',
          reason: 'overloaded',
          error: stackless(
            () =>
              new HttpError(
                status,
                message,
                { error: { type, message } },
                retryAfterHeaders(this.config.overloadRetryAfterMs),
              ),
          ),
        };
      }
      // The slot is handed over by `#pump`, so `#inFlight` already counts this request.
      await new Promise<void>((resolve) => {
        this.#queue.push(resolve);
        this.#maxQueued = Math.max(this.#maxQueued, this.#queue.length);
        const drop = this.#dropAt(arrived);
        if (drop !== undefined) this.#wakeAfter(drop);
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
        this.#inFlight--;
        this.#pump();
      },
    };
  }

  get stats(): AdmissionStats {
    return {
      admitted: this.#admitted,
      rateLimited: this.#rateLimited,
      overloaded: this.#overloaded,
      maxInFlight: this.#maxInFlight,
      maxQueued: this.#maxQueued,
    };
  }
}
