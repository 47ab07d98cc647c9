import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { REPORTER_NAMES } from '../report/write.js';
import {
  collect,
  collectGate,
  collectReporter,
  parseGrep,
  parseK,
  parseSeed,
  parseTrialIndex,
  REPORTER_CHOICES,
} from './options.js';

describe('flag parsers', () => {
  it('--k takes a whole number from 1 to 100,000, in plain digits', () => {
    expect(parseK('4')).toBe(4);
    expect(parseK(' 200 ')).toBe(200);
    expect(parseK('100000')).toBe(100_000);
    for (const bad of [
      '0',
      '-1',
      '1.5',
      '4.0',
      '1e3',
      '0x10',
      '',
      'four',
      '100001',
      '1000000000',
      '99999999999999999999',
    ]) {
      expect(() => parseK(bad), bad).toThrow(InvalidArgumentError);
    }
  });

  it('--trial counts from 0', () => {
    expect(parseTrialIndex('0')).toBe(0);
    expect(parseTrialIndex('3')).toBe(3);
    expect(() => parseTrialIndex('-1')).toThrow('expected a trial index (0, 1, 2…), got "-1"');
  });

  it('--seed takes a non-negative safe integer or "random"', () => {
    expect(parseSeed('random')).toBe('random');
    expect(parseSeed('0')).toBe(0);
    expect(parseSeed('9007199254740991')).toBe(9007199254740991);
    expect(() => parseSeed('9007199254740992')).toThrow(InvalidArgumentError);
    expect(() => parseSeed('-3')).toThrow(InvalidArgumentError);
    expect(() => parseSeed('Random')).toThrow(InvalidArgumentError);
  });

  it('repeatable flags append in order, starting empty', () => {
    expect(collect('b', collect('a', undefined))).toEqual(['a', 'b']);
    expect(collectReporter('junit', collectReporter('json', undefined))).toEqual(['json', 'junit']);
    expect(collectGate('duplicates==0', collectGate('pass^4>=95%', undefined)).map((g) => g.text)).toEqual([
      'pass^4>=0.95',
      'duplicates==0',
    ]);
  });

  it("a bad gate or reporter becomes commander's invalid-argument error, with the grammar or the choices", () => {
    expect(() => collectGate('pass^4 => 1', undefined)).toThrow(InvalidArgumentError);
    expect(() => collectGate('nonsense>1', undefined)).toThrow(/unknown metric "nonsense"[\s\S]*gate grammar/);
    expect(() => collectReporter('pdf', undefined)).toThrow(
      'unknown reporter "pdf" (one of: console, dot, list, json, junit, markdown, html, otlp)',
    );
  });

  it('knows every reporter the report module registers, and no other', () => {
    expect([...REPORTER_CHOICES].sort()).toEqual([...REPORTER_NAMES].sort());
  });

  it('--grep is a regular expression', () => {
    expect(parseGrep('^order-').test('order-partial-write-idempotent')).toBe(true);
    expect(parseGrep('rate-limit').test('email-rate-limit-seconds')).toBe(true);
    expect(() => parseGrep('(')).toThrow(/not a regular expression/);
  });
});
