/** The λ values a sweep runs at: probabilities of a fault per delivery. */

/** 0 to 0.5 in steps of 0.1: from no added fault to every other delivery faulted. */
export const DEFAULT_LAMBDAS: readonly number[] = [0, 0.1, 0.2, 0.3, 0.4, 0.5];

export type LambdaParse =
  { readonly kind: 'ok'; readonly lambdas: readonly number[] } | { readonly kind: 'error'; readonly message: string };

const NUMBER = /^\s*(?:\d+(?:\.\d*)?|\.\d+)\s*$/;
// Steps such as 0.1 do not add up exactly in binary: grid points are rounded to this many decimals.
const DECIMALS = 10;
const MAX_POINTS = 1000;
const round = (x: number): number => Number(x.toFixed(DECIMALS));

function probability(text: string): number | string {
  if (!NUMBER.test(text)) return `"${text.trim()}" is not a number`;
  const x = Number(text);
  return x > 1 ? `${text.trim()} is above 1 (λ is a probability per delivery)` : x;
}

/**
 * `0,0.1,0.25` (a list) or `0:0.5:0.1` (from, to and step, both ends included). Each value is a
 * probability in [0, 1]; the grid comes back sorted, and a value given twice is refused, since
 * it would run the same point twice under one name.
 */
export function parseLambdas(text: string): LambdaParse {
  const fail = (why: string): LambdaParse => ({
    kind: 'error',
    message: `expected a list of probabilities such as 0,0.1,0.2 or a range from:to:step such as 0:0.5:0.1; ${why}`,
  });
  const parts = text.split(':');
  let values: number[];
  if (parts.length === 3) {
    const [from, to, step] = parts.map(probability) as [number | string, number | string, number | string];
    for (const v of [from, to, step]) if (typeof v === 'string') return fail(v);
    const [a, b, s] = [from as number, to as number, step as number];
    if (s <= 0) return fail('the step must be above 0');
    if (b < a) return fail(`the range ends (${b}) before it starts (${a})`);
    const n = Math.floor(round((b - a) / s)) + 1;
    if (n > MAX_POINTS) return fail(`${n} points is more than ${MAX_POINTS}`);
    values = Array.from({ length: n }, (_, i) => round(a + i * s));
  } else if (parts.length === 1) {
    values = [];
    for (const item of text.split(',')) {
      const v = probability(item);
      if (typeof v === 'string') return fail(item.trim() === '' ? 'an empty item' : v);
      values.push(round(v));
    }
  } else {
    return fail(`"${text}" has ${parts.length - 1} colons`);
  }
  return checked(values, fail);
}

/** Several `--lambda` flags together: one grid, sorted, no value twice. */
export function mergeLambdas(grids: readonly (readonly number[])[]): LambdaParse {
  return checked(grids.flat(), (why) => ({ kind: 'error', message: why }));
}

function checked(values: readonly number[], fail: (why: string) => LambdaParse): LambdaParse {
  const sorted = [...values].sort((a, b) => a - b);
  const twice = sorted.find((v, i) => i > 0 && sorted[i - 1] === v);
  if (twice !== undefined) return fail(`λ = ${twice} is given twice`);
  return { kind: 'ok', lambdas: sorted };
}
