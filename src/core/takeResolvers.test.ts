import { describe, expect, it } from 'vitest';
import { takenReject, takenResolve, takeResolvers } from './takeResolvers.js';

describe('takeResolvers', () => {
  it("hands over the promise's own resolving functions, then lets go of them", async () => {
    const resolved = new Promise<number>(takeResolvers);
    takenResolve<number>()(7);
    await expect(resolved).resolves.toBe(7);
    const rejected = new Promise<number>(takeResolvers);
    const reject = takenReject();
    takenResolve<number>();
    reject(new Error('no'));
    await expect(rejected).rejects.toThrow('no');
    // Nothing is held once taken: a settled promise is not kept alive by the slots.
    expect([takenReject(), takenResolve()]).toEqual([undefined, undefined]);
  });

  it('settles at the hop an inline executor settles at', async () => {
    const order: string[] = [];
    const taken = new Promise<void>(takeResolvers);
    takenResolve<void>()();
    const inline = new Promise<void>((resolve) => resolve());
    await Promise.all([
      taken.then(() => order.push('taken')),
      inline.then(() => order.push('inline')),
      Promise.resolve().then(() => order.push('tick')),
    ]);
    expect(order).toEqual(['taken', 'inline', 'tick']);
  });
});
