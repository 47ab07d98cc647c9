import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hash32, Rng, trialSeed } from './rng.js';

describe('Rng', () => {
  it('gives the same stream for the same seed and a different one for another', () => {
    const draw = (seed: number) => {
      const r = new Rng(seed);
      return [r.next(), r.int(0, 1000), r.hex(12), r.chance(0.5)];
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('stays within its ranges', () => {
    const r = new Rng(7);
    for (let i = 0; i < 1000; i++) {
      const f = r.next();
      const n = r.int(-3, 3);
      const b = r.between(10, 20);
      expect(f >= 0 && f < 1).toBe(true);
      expect(n >= -3 && n <= 3 && Number.isInteger(n)).toBe(true);
      expect(b >= 10 && b < 20).toBe(true);
    }
    expect(r.hex(20)).toMatch(/^[0-9a-f]{20}$/);
    expect([r.chance(0), r.chance(1)]).toEqual([false, true]);
  });

  it("seeds a fork with hash32 of the seed's text, a NUL and the label, for any seed and label", () => {
    const seed = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 2 ** 32 - 1, Number.NaN, 1e21));
    fc.assert(
      fc.property(seed, fc.string({ unit: 'binary' }), fc.string(), (s, label, other) => {
        const rng = new Rng(s);
        expect(rng.fork(label).seed).toBe(hash32(`${s}\u0000${label}`));
        // A second fork of the same parent starts from the same place.
        expect(rng.fork(other).seed).toBe(hash32(`${s}\u0000${other}`));
      }),
      { numRuns: 2000 },
    );
  });

  it('forks independent streams: drawing from a fork leaves the parent untouched', () => {
    const a = new Rng(1);
    const b = new Rng(1);
    const fork = a.fork('faults');
    fork.next();
    fork.next();
    expect(a.next()).toBe(b.next());
    expect(new Rng(1).fork('faults').next()).toBe(new Rng(1).fork('faults').next());
    expect(new Rng(1).fork('faults').next()).not.toBe(new Rng(1).fork('runtime').next());
  });
});

describe('trialSeed', () => {
  it('depends on every part of the trial identity', () => {
    const base = trialSeed(1, 's', 'c', 0);
    expect(trialSeed(1, 's', 'c', 0)).toBe(base);
    expect(
      new Set([
        base,
        trialSeed(2, 's', 'c', 0),
        trialSeed(1, 't', 'c', 0),
        trialSeed(1, 's', 'd', 0),
        trialSeed(1, 's', 'c', 1),
      ]).size,
    ).toBe(5);
  });

  it('is FNV-1a (a stable, documented hash)', () => {
    expect(hash32('')).toBe(0x811c9dc5);
    expect(hash32('a')).toBe(0xe40c292c);
  });
});
