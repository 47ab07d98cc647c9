/**
 * A tool as teams ship it: it calls the shop's REST API with global fetch and knows nothing
 * of faultline. It sends one `Idempotency-Key` for the whole operation and resends on a
 * timeout, a dropped connection, a 429 or a 5xx, backing off between tries.
 */
export interface Order {
  readonly clientReference: string;
  readonly item: string;
  readonly quantity: number;
  readonly amountCents: number;
}

export interface CreateOrderOptions {
  readonly baseUrl: string;
  readonly maxAttempts?: number;
  readonly timeoutMs?: number;
  /** The broken variant real code often is: no key at all, so a resend is a new order. */
  readonly withoutIdempotencyKey?: boolean;
}

const retryable = (status: number): boolean => status === 429 || status >= 500;

export async function createOrder(order: Order, options: CreateOrderOptions): Promise<{ orderId: string }> {
  const maxAttempts = options.maxAttempts ?? 3;
  // One key per business operation, reused by every resend (R22, R23).
  const key = options.withoutIdempotencyKey ? undefined : `create-order-${order.clientReference}`;
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(`${options.baseUrl}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
        body: JSON.stringify(order),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      if (res.ok) return (await res.json()) as { orderId: string };
      if (!retryable(res.status) || attempt >= maxAttempts)
        throw new Error(`create order failed: ${res.status} ${await res.text()}`);
    } catch (error) {
      const transient = error instanceof TypeError || (error instanceof DOMException && error.name === 'TimeoutError');
      if (!transient || attempt >= maxAttempts) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
  }
}
