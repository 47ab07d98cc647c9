/** A model's price, per million tokens: input, output, and input read from the prompt cache. */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  /** Cached input; the input price when absent. */
  readonly cachedInput?: number | undefined;
}

/** Prices by model name; a name also prices its dated versions (`gpt-4o-mini` prices `gpt-4o-mini-2024-07-18`). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * The list prices (US dollars per million tokens) the providers published for their current
 * models when this table was written. They change: check them against your bill, and set your
 * own in `faultline.config.ts` (`prices: { 'gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 } }`),
 * which wins over this table model by model.
 */
export const DEFAULT_PRICES: PriceTable = {
  // OpenAI
  'gpt-5': { input: 1.25, output: 10, cachedInput: 0.125 },
  'gpt-5-mini': { input: 0.25, output: 2, cachedInput: 0.025 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cachedInput: 0.005 },
  'gpt-4.1': { input: 2, output: 8, cachedInput: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cachedInput: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  'gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cachedInput: 0.075 },
  o3: { input: 2, output: 8, cachedInput: 0.5 },
  'o4-mini': { input: 1.1, output: 4.4, cachedInput: 0.275 },
  // Anthropic (cache reads at a tenth of the input price)
  'claude-opus-4-1': { input: 15, output: 75, cachedInput: 1.5 },
  'claude-opus-4': { input: 15, output: 75, cachedInput: 1.5 },
  'claude-sonnet-4-5': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-sonnet-4': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-3-7-sonnet': { input: 3, output: 15, cachedInput: 0.3 },
  'claude-haiku-4-5': { input: 1, output: 5, cachedInput: 0.1 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cachedInput: 0.08 },
};

/** The price of `model`: its own entry, else the longest name it extends with a dated or `-latest` suffix. */
export function priceOf(table: PriceTable, model: string): ModelPrice | undefined {
  if (Object.hasOwn(table, model)) return table[model];
  let best: string | undefined;
  for (const name of Object.keys(table)) {
    if (!model.startsWith(`${name}-`)) continue;
    const suffix = model.slice(name.length + 1);
    if (!/^(\d{4}-?\d{2}-?\d{2}|\d{8}|latest)$/.test(suffix)) continue;
    if (best === undefined || name.length > best.length) best = name;
  }
  return best === undefined ? undefined : table[best];
}

/** What `tokens` cost at `price`: cached input at its own price, the rest of the input and the output at theirs. */
export function costOf(
  price: ModelPrice,
  tokens: { readonly input: number; readonly output: number; readonly cached?: number },
): number {
  const cached = Math.min(tokens.cached ?? 0, tokens.input);
  return (
    ((tokens.input - cached) * price.input +
      cached * (price.cachedInput ?? price.input) +
      tokens.output * price.output) /
    1_000_000
  );
}

/** Prices a trial's tokens by its model, with `overrides` over the shipped table; undefined for a model without a price. */
export function pricer(
  overrides: PriceTable = {},
): (
  model: string | undefined,
  tokens: { readonly input: number; readonly output: number; readonly cached?: number },
) => number | undefined {
  const table = { ...DEFAULT_PRICES, ...overrides };
  return (model, tokens) => {
    if (model === undefined) return undefined;
    const price = priceOf(table, model);
    return price === undefined ? undefined : costOf(price, tokens);
  };
}

/** `$0.0123`: four decimals below a dollar, two above. */
export const formatCost = (amount: number): string => `$${amount < 1 ? amount.toFixed(4) : amount.toFixed(2)}`;
