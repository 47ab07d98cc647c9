import { describe, expect, it } from 'vitest';
import { costOf, DEFAULT_PRICES, formatCost, priceOf, pricer } from './prices.js';

describe('the price table', () => {
  it('prices a model by its name or a dated version of it, and nothing else', () => {
    expect(priceOf(DEFAULT_PRICES, 'gpt-4o-mini')).toEqual({ input: 0.15, output: 0.6, cachedInput: 0.075 });
    expect(priceOf(DEFAULT_PRICES, 'gpt-4o-mini-2024-07-18')).toBe(DEFAULT_PRICES['gpt-4o-mini']);
    expect(priceOf(DEFAULT_PRICES, 'gpt-4o-2024-08-06')).toBe(DEFAULT_PRICES['gpt-4o']);
    expect(priceOf(DEFAULT_PRICES, 'claude-sonnet-4-5-20250929')).toBe(DEFAULT_PRICES['claude-sonnet-4-5']);
    expect(priceOf(DEFAULT_PRICES, 'claude-3-5-haiku-latest')).toBe(DEFAULT_PRICES['claude-3-5-haiku']);
    expect(priceOf(DEFAULT_PRICES, 'gpt-4o-mini-tts')).toBeUndefined();
    expect(priceOf(DEFAULT_PRICES, 'llama3.1:8b')).toBeUndefined();
  });

  it('costs cached input at its own price, and lets a project override a model or add one', () => {
    // 1M in (200k cached), 100k out of gpt-4o: 0.8 × 2.5 + 0.2 × 1.25 + 0.1 × 10
    expect(costOf(DEFAULT_PRICES['gpt-4o']!, { input: 1_000_000, output: 100_000, cached: 200_000 })).toBeCloseTo(
      3.25,
      10,
    );
    const price = pricer({ 'gpt-4o': { input: 1, output: 1 }, 'llama3.1:8b': { input: 0, output: 0 } });
    expect(price('gpt-4o', { input: 500_000, output: 500_000, cached: 100 })).toBeCloseTo(1, 10);
    expect(price('llama3.1:8b', { input: 10, output: 10 })).toBe(0);
    expect(price('unknown-model', { input: 10, output: 10 })).toBeUndefined();
    expect(price(undefined, { input: 10, output: 10 })).toBeUndefined();
    expect(formatCost(0.01234)).toBe('$0.0123');
    expect(formatCost(12.345)).toBe('$12.35');
  });
});
