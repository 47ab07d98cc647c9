import { describe, expect, it } from 'vitest';
import { Rng } from '../core/index.js';
import { matchesRule, pickRule, type RequestFacts } from './match.js';
import type { FaultMatch, FaultRule } from './plan.js';

const facts: RequestFacts = { tool: 'pay', purpose: 'call', call: 2, attempt: 3, elapsedMs: 1_000 };
const rule = (match: FaultMatch, times?: number): FaultRule => ({
  match,
  fault: { kind: 'timeout' },
  ...(times === undefined ? {} : { times }),
});
const hits = (match: FaultMatch, f: Partial<RequestFacts> = {}): boolean =>
  matchesRule(rule(match), { ...facts, ...f }, 0, new Rng(1));

describe('matchesRule', () => {
  it("an empty match hits every call attempt, but not the execution layer's status queries", () => {
    expect(hits({})).toBe(true);
    expect(hits({}, { purpose: 'status' })).toBe(false);
    expect(hits({ purpose: 'status' }, { purpose: 'status' })).toBe(true);
    expect(hits({ purpose: 'any' }, { purpose: 'status' })).toBe(true);
  });

  it.each<[string, FaultMatch, boolean]>([
    ['tool name', { tool: 'pay' }, true],
    ['other tool name', { tool: 'refund' }, false],
    ['tool list', { tool: ['refund', 'pay'] }, true],
    ['tool list without it', { tool: ['refund', 'email'] }, false],
    ['purpose', { purpose: 'call' }, true],
    ['other purpose', { purpose: 'status' }, false],
    ['any purpose', { purpose: 'any' }, true],
    ['call number', { call: 2 }, true],
    ['other call number', { call: 1 }, false],
    ['call list', { call: [1, 2] }, true],
    ['attempt', { attempt: 3 }, true],
    ['other attempt', { attempt: 1 }, false],
    ['attempt list', { attempt: [2, 4] }, false],
    ['all fields at once', { tool: 'pay', purpose: 'call', call: 2, attempt: 3, from: 0, to: 2_000 }, true],
    ['one field off', { tool: 'pay', purpose: 'call', call: 2, attempt: 1 }, false],
  ])('%s', (_name, match, expected) => {
    expect(hits(match)).toBe(expected);
  });

  it('the time window is [from, to): from included, to excluded', () => {
    const window = { from: 1_000, to: 2_000 };
    expect(hits(window, { elapsedMs: 999 })).toBe(false);
    expect(hits(window, { elapsedMs: 1_000 })).toBe(true);
    expect(hits(window, { elapsedMs: 1_999 })).toBe(true);
    expect(hits(window, { elapsedMs: 2_000 })).toBe(false);
    expect(hits({ from: 500 }, { elapsedMs: 10_000_000 })).toBe(true);
    expect(hits({ to: 500 }, { elapsedMs: 0 })).toBe(true);
  });

  it('probability 0 never hits and 1 always does', () => {
    expect(Array.from({ length: 50 }, () => hits({ probability: 0 }))).not.toContain(true);
    expect(Array.from({ length: 50 }, () => hits({ probability: 1 }))).not.toContain(false);
  });

  it('probability draws from the rng: the same seed gives the same hits', () => {
    const draw = (seed: number) => {
      const rng = new Rng(seed);
      return Array.from({ length: 40 }, () => matchesRule(rule({ probability: 0.3 }), facts, 0, rng));
    };
    expect(draw(7)).toEqual(draw(7));
    const hitCount = draw(7).filter(Boolean).length;
    expect(hitCount).toBeGreaterThan(0);
    expect(hitCount).toBeLessThan(40);
  });

  it('draws only after every other field matched, and never for an exhausted rule', () => {
    const rng = new Rng(3);
    expect(matchesRule(rule({ tool: 'refund', probability: 0.5 }), facts, 0, rng)).toBe(false);
    expect(matchesRule(rule({ probability: 0.5 }, 1), facts, 1, rng)).toBe(false);
    // The rng is exactly where a fresh one starts: nothing was drawn.
    expect(rng.next()).toBe(new Rng(3).next());
  });

  it('times limits how often the rule applies', () => {
    const r = rule({}, 2);
    expect([0, 1, 2, 3].map((h) => matchesRule(r, facts, h, new Rng(1)))).toEqual([true, true, false, false]);
  });
});

describe('pickRule', () => {
  it('picks the first rule that applies, skipping exhausted ones', () => {
    const plan: FaultRule[] = [rule({ tool: 'refund' }), rule({}, 1), { match: {}, fault: { kind: 'conflict' } }];
    expect(pickRule(plan, facts, [0, 0, 0], new Rng(1))?.index).toBe(1);
    expect(pickRule(plan, facts, [0, 1, 0], new Rng(1))).toEqual({ index: 2, rule: plan[2] });
    expect(pickRule([rule({ tool: 'refund' })], facts, [0], new Rng(1))).toBeUndefined();
  });
});

describe('pickRule after the heal', () => {
  const plan: FaultRule[] = [
    { match: { probability: 0.5 }, fault: { kind: 'timeout' } },
    { match: {}, fault: { kind: 'network', code: 'ECONNRESET' } },
  ];

  it('picks no rule from healAtMs on, and one before it', () => {
    expect(pickRule(plan, { ...facts, elapsedMs: 999 }, [0, 0], new Rng(1), 1_000)).toBeDefined();
    expect(pickRule(plan, { ...facts, elapsedMs: 1_000 }, [0, 0], new Rng(1), 1_000)).toBeUndefined();
    expect(pickRule(plan, { ...facts, elapsedMs: 50_000 }, [0, 0], new Rng(1), 1_000)).toBeUndefined();
  });

  it('draws nothing once healed, so the rng is where it was', () => {
    const healed = new Rng(7);
    pickRule(plan, facts, [0, 0], healed, 0);
    expect(healed.next()).toBe(new Rng(7).next());
  });

  it('without a heal, chooses as before', () => {
    expect(pickRule(plan, facts, [0, 0], new Rng(3))).toEqual(pickRule(plan, facts, [0, 0], new Rng(3), 1_001));
  });
});
