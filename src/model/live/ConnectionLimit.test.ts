import { describe, expect, it } from 'vitest';
import { ConnectionLimit } from './ConnectionLimit.js';

describe('ConnectionLimit', () => {
  it('never lets more than its limit hold at once, and serves waiters in order', async () => {
    const limit = new ConnectionLimit(2);
    const order: number[] = [];
    const frees: (() => void)[] = [];
    const takers = [0, 1, 2, 3].map((i) =>
      limit.acquire().then((free) => {
        order.push(i);
        frees.push(free);
      }),
    );
    await Promise.resolve();
    await Promise.resolve();
    expect(order).toEqual([0, 1]);
    expect(limit.held).toBe(2);
    frees[0]!();
    frees[0]!(); // freeing twice frees once
    await Promise.resolve();
    await Promise.resolve();
    expect(order).toEqual([0, 1, 2]);
    frees[1]!();
    frees[2]!();
    await Promise.all(takers);
    frees[3]!();
    expect(limit.held).toBe(0);
    expect(limit.most).toBe(2);
  });

  it('refuses a limit that is not a whole number of 1 or more', () => {
    expect(() => new ConnectionLimit(0)).toThrow('a connection limit is a whole number, 1 or more; got 0');
  });
});
