import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { rejectedLater } from './rejectedLater.js';
import { besideChains } from './microtaskOrder.testkit.js';

/**
 * Async functions returning an error answer after `hops[i]` awaits each, beside chains of plain
 * reactions: the order everything settles in, logged.
 */
async function settleOrder(
  hops: readonly number[],
  chains: readonly number[],
  reject: (error: Error) => unknown,
): Promise<string[]> {
  const log: string[] = [];
  const answers = hops.map(async (n, i) => {
    for (let k = 0; k < n; k++) await Promise.resolve();
    log.push(`returned ${i}`);
    return reject(new Error(`no ${i}`));
  });
  const settled = answers.map((p, i) =>
    p.then(
      () => log.push(`fulfilled ${i}`),
      (e: unknown) => log.push(`rejected ${i} ${(e as Error).message}`),
    ),
  );
  return besideChains(log, chains, settled);
}

describe('rejectedLater', () => {
  test.prop([
    fc.array(fc.nat({ max: 4 }), { minLength: 1, maxLength: 5 }),
    fc.array(fc.nat({ max: 8 }), { maxLength: 4 }),
  ])(
    'an async function returning it rejects at the same point of the microtask queue as one returning Promise.reject',
    async (hops, chains) => {
      expect(await settleOrder(hops, chains, rejectedLater)).toEqual(
        await settleOrder(hops, chains, (e) => Promise.reject(e)),
      );
    },
  );

  it('is never an unhandled rejection of its own', async () => {
    const seen: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void seen.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // Typed unknown, as the wire's own is: an async function may not declare a thenable it returns.
      const refuse = (error: Error): unknown => rejectedLater(error);
      const answer = (async () => refuse(new Error('refused')))();
      await expect(answer).rejects.toThrow('refused');
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(seen).toEqual([]);
  });
});
