import { describe, expect, it } from 'vitest';
import { endingItsOwnTrial, isStackOverflow, TOO_DEEP } from './tooDeep.js';

type Options = { readonly trial: string; readonly lost?: unknown };

/** A value deeper than any stack: the engine's own RangeError, not one made up. */
function overflow(): never {
  const deep = (n: number): number => deep(n + 1) + 1;
  deep(0);
  throw new Error('unreachable');
}

describe('endingItsOwnTrial', () => {
  it('judges a trial that ran out of stack again, as lost with TOO_DEEP, instead of rejecting', async () => {
    const seen: Options[] = [];
    const out = await endingItsOwnTrial<Options, string>({ trial: 't-1' }, async (o) => {
      seen.push(o);
      if (o.lost === undefined) overflow();
      return 'judged';
    });
    expect(out).toBe('judged');
    expect(seen).toEqual([{ trial: 't-1' }, { trial: 't-1', lost: TOO_DEEP }]);
  });

  it('lets every other error through, and a trial already lost is not tried a third time', async () => {
    await expect(
      endingItsOwnTrial<Options, never>({ trial: 't' }, () => Promise.reject(new TypeError('a bug'))),
    ).rejects.toThrow('a bug');
    await expect(
      endingItsOwnTrial<Options, never>({ trial: 't', lost: TOO_DEEP }, async () => overflow()),
    ).rejects.toThrow(RangeError);
  });

  it('knows V8’s stack overflow from a RangeError of another kind', () => {
    let caught: unknown;
    try {
      overflow();
    } catch (error) {
      caught = error;
    }
    expect(isStackOverflow(caught)).toBe(true);
    expect(isStackOverflow(new RangeError('a confidence must be between 0 and 1'))).toBe(false);
  });
});
