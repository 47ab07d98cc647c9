import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tailText } from './tailText.js';

describe('tailText', () => {
  it('keeps short text whole, and cuts long text to its last characters after …', () => {
    expect(tailText('short', 10)).toBe('short');
    expect(tailText('abcdefghij', 4)).toBe('…ghij');
  });

  it('never keeps a piece of a secret: the cut moves past one it would fall inside', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 60 }),
        fc.string({ minLength: 8, maxLength: 30 }),
        fc.string({ maxLength: 60 }),
        fc.integer({ min: 1, max: 120 }),
        (before, secret, after, max) => {
          const text = `${before}${secret}${after}`;
          // The secret once in the text, so where the cut starts says whether it fell inside it.
          fc.pre(text.indexOf(secret) === before.length && text.lastIndexOf(secret) === before.length);
          const kept = tailText(text, max, [secret]);
          const shown = text.length > max ? kept.slice(1) : kept;
          const start = text.length - shown.length;
          expect(text.endsWith(shown)).toBe(true);
          expect(start <= before.length || start >= before.length + secret.length).toBe(true);
        },
      ),
      { numRuns: 200, seed: 43 },
    );
  });
});
