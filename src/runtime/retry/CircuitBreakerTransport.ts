import type { Clock, ToolContract, Transport, WireRequest } from '../../core/index.js';
import type { CircuitBreakerConfig } from '../config.js';
import { CircuitBreaker } from './CircuitBreaker.js';
import { CircuitOpenError } from './CircuitOpenError.js';

/** Failures that say the service is in trouble: 5xx, 429, timeouts and network errors; not 4xx business answers. */
export function isServiceFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return true;
  const e = error as { status?: unknown; code?: unknown; name?: unknown };
  if (typeof e.status === 'number') return e.status >= 500 || e.status === 429 || e.status === 408;
  return typeof e.code === 'string' || e.name === 'TimeoutError' || e.name === 'AbortError';
}

/**
 * A transport behind a circuit breaker, as the execution layer's client would hold one
 * (cockatiel's `wrap(retry, breaker)`: the breaker sits inside the retries). A refused send
 * rejects at once with `CircuitOpenError` and never reaches the wire.
 */
export class CircuitBreakerTransport implements Transport {
  readonly tools: readonly ToolContract[];
  readonly breaker: CircuitBreaker;
  readonly releasesSignal: boolean;

  constructor(
    private readonly inner: Transport,
    config: CircuitBreakerConfig,
    clock: Clock,
  ) {
    this.tools = inner.tools;
    this.releasesSignal = inner.releasesSignal === true;
    this.breaker = new CircuitBreaker(config, clock);
  }

  async send(request: WireRequest, signal?: AbortSignal): Promise<unknown> {
    const admission = this.breaker.admit();
    if (admission.kind === 'refuse') throw new CircuitOpenError(admission.retryInMs);
    try {
      const value = await this.inner.send(request, signal);
      this.breaker.record(false, admission.probe);
      return value;
    } catch (error) {
      // An abort is the caller's timeout firing: the service did not answer in time.
      this.breaker.record(isServiceFailure(error), admission.probe);
      throw error;
    }
  }
}
