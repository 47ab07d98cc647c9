import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aroundDifference } from './lieNote.js';

describe('aroundDifference: a lie shown where the answer and the truth differ', () => {
  it('the two shown texts differ whenever the whole texts do, however deep the changed field is', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.string({ minLength: 1, maxLength: 10 }),
        fc.string({ minLength: 1, maxLength: 10 }),
        fc.string({ maxLength: 200 }),
        (prefix, x, y, suffix) => {
          fc.pre(x !== y);
          const a = `${prefix}${x}${suffix}`;
          const b = `${prefix}${y}${suffix}`;
          const [sa, sb] = aroundDifference(a, b, 80);
          expect(sa).not.toBe(sb);
          expect(sa.length).toBeLessThanOrEqual(80);
          expect(sb.length).toBeLessThanOrEqual(80);
        },
      ),
      { numRuns: 300, seed: 43 },
    );
  });
});
