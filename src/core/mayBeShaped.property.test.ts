import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayBeShaped } from './mayBeShaped.js';

// The pattern `mayBeShaped` stands in for (the walk's first test of a string, before it read characters).
const MAYBE_TOKEN = /sk-|_live_|_test_|bearer|authorization|[="\\\u0000-\u001f\ud800-\udfff]/i;

// The pattern's words and characters in any case, near-misses, letters that fold oddly, and any other text.
const PIECES = [
  'sk-',
  'SK-',
  'sK-',
  's-k',
  'k-',
  's',
  '_live_',
  '_TEST_',
  '_LiVe_',
  '_',
  'live',
  '_liv',
  'test_',
  'bearer',
  'BeArEr',
  'beare',
  'earer',
  'authorization',
  'AUTHORIZATION',
  'authorizatio',
  'uthorization',
  '=',
  '"',
  '\\',
  '\n',
  '\u001f',
  ' ',
  '\ud800',
  '\udfff',
  'ſk-',
  'sK\u212a-',
  'req-7',
  'call-2',
  'Service Unavailable',
  'a',
  'b',
];
const text = fc
  .array(
    fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 4 }), fc.string({ unit: 'binary', maxLength: 3 })),
    { maxLength: 6 },
  )
  .map((p) => p.join(''));

describe('mayBeShaped', () => {
  it('answers as the pattern does', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(mayBeShaped(s)).toBe(MAYBE_TOKEN.test(s));
      }),
      { numRuns: 30000 },
    );
  });

  it('knows the shapes in any case, and their near misses', () => {
    for (const s of [
      'xSk-1',
      'a_Live_b',
      'x_tEsT_',
      'BEARER',
      'the Authorization',
      'a=b',
      'q"',
      'back\\',
      'tab\t',
      '\ud83d',
    ])
      expect(mayBeShaped(s)).toBe(true);
    for (const s of [
      'req-7',
      'call-2',
      'Service Unavailable',
      'charge_payment',
      '_live',
      'test_',
      'ſk-abc',
      'sk_',
      'bearing',
      'author',
      '',
    ])
      expect(mayBeShaped(s)).toBe(false);
  });
});
