import { describe, expect, it } from 'vitest';
import { parseHttpDate, parseRetryAfter } from './retryAfter.js';

const NOW = Date.UTC(2015, 9, 21, 7, 28, 0);

describe('parseRetryAfter', () => {
  it.each<[string | number | undefined, number | undefined]>([
    ['120', 120_000],
    [' 3 ', 3_000],
    ['0', 0],
    ['1.5', 1_500],
    [2, 2_000],
    ['Wed, 21 Oct 2015 07:28:30 GMT', 30_000],
    ['Wednesday, 21-Oct-15 07:29:00 GMT', 60_000],
    ['Wed Oct 21 07:28:10 2015', 10_000],
    ['Wed, 21 Oct 2015 07:00:00 GMT', 0],
    ['-5', undefined],
    [-5, undefined],
    [Number.NaN, undefined],
    ['soon', undefined],
    ['', undefined],
    ['2015-10-21T07:29:00Z', undefined],
    ['Wed, 21 Foo 2015 07:28:30 GMT', undefined],
    [undefined, undefined],
  ])('%j -> %j', (value, expected) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });

  it('reads HTTP-dates in UTC whatever the local time zone', () => {
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
  });
});
