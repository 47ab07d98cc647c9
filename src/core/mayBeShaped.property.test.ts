import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayBeShaped } from './mayBeShaped.js';

// The pattern `mayBeShaped` stands in for (secretText's MAYBE_TOKEN, as the walk used it alone).
const MAYBE_TOKEN = /sk-|_live_|_test_|bearer|authorization|[="\\\u0000-\u001f\ud800-\udfff]/i;

// The pattern's words and characters in any case, near-misses, letters that fold oddly, and any other text.
const PIECES = ['sk-', 'SK-', 'sK-', 's-k', 'k-', 's', '_live_', '_TEST_', '_', 'live', 'bearer', 'BeArEr', 'beare', 'earer', 'authorization', 'AUTHORIZATION', 'authorizatio', 'uthorization', '=', '"', '\\', '\n', '\u001f', ' ', '\ud800', '\udfff', 'ſk-', 'sK\u212a-', 'req-7', 'call-2', 'Service Unavailable', 'a', 'b'];
const text = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 4 }), fc.string({ unit: 'binary', maxLength: 3 })), { maxLength: 6 }).map((p) => p.join(''));

describe('mayBeShaped', () => {
  it('says maybe wherever the pattern matches', () => {
    fc.assert(
      fc.property(text, (s) => {
        if (MAYBE_TOKEN.test(s)) expect(mayBeShaped(s)).toBe(true);
      }),
      { numRuns: 20000 },
    );
  });

  it('says no for most strings the pattern does not match (it is a filter, not a yes)', () => {
    const clean = fc.sample(text, { numRuns: 5000, seed: 25 }).filter((s) => !MAYBE_TOKEN.test(s));
    const cautious = clean.filter(mayBeShaped);
    // Only an underscore outside `_live_`/`_test_` makes it more cautious than the pattern.
    expect(cautious.every((s) => s.includes('_'))).toBe(true);
    expect(clean.length - cautious.length).toBeGreaterThan(1000);
  });

  it('knows the shapes in any case', () => {
    for (const s of ['xSk-1', 'a_Live_b', 'x_tEsT_', 'BEARER', 'the Authorization', 'a=b', 'q"', 'back\\', 'tab\t', '\ud83d']) expect(mayBeShaped(s)).toBe(true);
    for (const s of ['req-7', 'call-2', 'Service Unavailable', 'ſk-abc', 'bearing', 'author', '']) expect(mayBeShaped(s)).toBe(false);
  });
});
