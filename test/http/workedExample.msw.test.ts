import { describe, expect, it } from 'vitest';
import { orderTrial } from '../../scenarios/examples/rest-order-tool/orderTrial.js';

// `times: 1`: the first request only (`attempt: 1` would do too: a keyless resend of the same request is attempt 2 of its call).
const partialWrite = [
  { match: { tool: 'create_order' }, fault: { kind: 'partial_write', lostAs: 'network' }, times: 1 },
] as const;
const duplicate = [{ match: { tool: 'create_order' }, fault: { kind: 'duplicate', copies: 2 } }] as const;

describe('worked example: an unmodified fetch tool under a partial write and a duplicate delivery', () => {
  it('partial write: the order commits, the connection drops, the tool resends with its key, and the service replays one order', async () => {
    const result = await orderTrial([...partialWrite]);
    expect(result.outcome).toBe('created ord-1');
    expect(result.orders).toEqual(['ord-1']);
    expect(result.duplicates).toEqual({ valid: true });
    const wire = result.history.flatMap((e) =>
      e.type === 'response'
        ? [`${e.t}ms ${e.method} ${e.url} attempt ${e.attempt} ${e.result} key=${e.idempotencyKey}`]
        : [],
    );
    expect(wire).toEqual([
      '0ms POST https://api.shop.test/orders attempt 1 error key=create-order-ref-42',
      '500ms POST https://api.shop.test/orders attempt 2 ok key=create-order-ref-42',
    ]);
  });

  it('partial write without an idempotency key: the resend is a second order, and the duplicates checker traces both', async () => {
    const result = await orderTrial([...partialWrite], { withoutIdempotencyKey: true });
    expect(result.outcome).toBe('created ord-2');
    expect(result.orders).toEqual(['ord-1', 'ord-2']);
    expect(result.duplicates.valid).toBe(false);
    expect(result.duplicates.valid === false && result.duplicates.message).toBe(
      'orders:ref-42 was created 2 times (effects #0, #1; requests http-1, http-2; calls create_order#1 of create_order): resent without an idempotency key (R22, R25)',
    );
  });

  it('duplicate delivery: with the key the second copy is replayed; without it the service executes both', async () => {
    const keyed = await orderTrial([...duplicate]);
    expect([keyed.outcome, keyed.orders, keyed.duplicates]).toEqual(['created ord-1', ['ord-1'], { valid: true }]);

    const keyless = await orderTrial([...duplicate], { withoutIdempotencyKey: true });
    expect([keyless.outcome, keyless.orders]).toEqual(['created ord-1', ['ord-1', 'ord-2']]);
    expect(keyless.duplicates.valid === false && keyless.duplicates.message).toBe(
      'orders:ref-42 was created 2 times (effects #0, #1; requests http-1; calls create_order#1 of create_order): request http-1 was delivered more than once and the service executed every copy (R24)',
    );
  });

  it('is the same trial, byte for byte, when run again', async () => {
    const runs = [await orderTrial([...partialWrite]), await orderTrial([...partialWrite])];
    expect(JSON.stringify(runs[1]!.history)).toBe(JSON.stringify(runs[0]!.history));
  });
});
