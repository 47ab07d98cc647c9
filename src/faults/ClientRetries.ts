import type { Clock, Rng, ToolContract, Transport, WireRequest } from '../core/index.js';
import { parseRetryAfter } from '../core/retryAfter.js';

export interface ClientRetriesOptions {
  /** Retries after the first try, as an SDK's `maxRetries` (the OpenAI and Anthropic SDKs default to 2). */
  readonly maxRetries: number;
  readonly clock: Clock;
  readonly rng: Rng;
  /** Only these tools' clients retry (default: all). */
  readonly tools?: readonly string[];
}

/** The statuses the official SDKs retry: 408, 409, 429 and 5xx; and connection errors. */
function sdkRetries(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { status?: unknown; code?: unknown; name?: unknown };
  if (typeof e.status === 'number') return [408, 409, 429].includes(e.status) || e.status >= 500;
  return typeof e.code === 'string' || e.name === 'TimeoutError';
}

/** The SDKs honour a server's wait only up to a minute; beyond it they use their own backoff. */
function retryAfterMs(error: unknown, nowMs: number): number | undefined {
  const headers = (error as { headers?: Record<string, string> }).headers;
  const ms = parseRetryAfter(headers?.['retry-after'], nowMs);
  return ms !== undefined && ms <= 60_000 ? ms : undefined;
}

/**
 * A tool client that retries by itself, below the caller, as the OpenAI and Anthropic SDKs
 * do by default (R10). The caller sees one attempt; the service sees up to `maxRetries + 1`
 * deliveries of the same request. Its backoff follows those SDKs: 0.5 s doubling to 8 s,
 * minus up to 25% jitter, or a short `Retry-After`.
 */
export class ClientRetries implements Transport {
  readonly tools: readonly ToolContract[];

  constructor(
    private readonly inner: Transport,
    private readonly options: ClientRetriesOptions,
  ) {
    const applies = (name: string): boolean => options.tools?.includes(name) ?? true;
    this.tools = inner.tools.map((t) => (applies(t.name) ? { ...t, clientRetries: options.maxRetries } : t));
  }

  async send(request: WireRequest, signal?: AbortSignal): Promise<unknown> {
    const retries = this.tools.find((t) => t.name === request.tool)?.clientRetries ?? 0;
    for (let retry = 0; ; retry++) {
      try {
        return await this.inner.send(request, signal);
      } catch (error) {
        if (retry >= retries || signal?.aborted || !sdkRetries(error)) throw error;
        const backoff = Math.min(500 * 2 ** retry, 8_000) * (1 - 0.25 * this.options.rng.next());
        await this.options.clock.sleep(retryAfterMs(error, this.options.clock.now()) ?? backoff, signal);
      }
    }
  }
}
