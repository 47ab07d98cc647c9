/** Number and value formats shared by the reporters, so every report shows a figure the same way. */

/** A probability or rate with three decimals: `1.000`, `0.167`; `n/a` when missing. */
export const formatRate = (x: number | null | undefined): string =>
  x === null || x === undefined ? 'n/a' : x.toFixed(3);

/** A ratio such as amplification or attempts per call: `2.00`. */
export const formatRatio = (x: number): string => x.toFixed(2);

/** Virtual milliseconds as seconds: `10.462s`. */
export const formatSeconds = (ms: number): string => `${(ms / 1000).toFixed(3)}s`;

/** Any value as one line of JSON, cut at `max` characters. */
export function compactJson(value: unknown, max = Infinity): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `1 trial`, `2 trials`. */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A gate's value: integers as they are, fractions to at most four decimals, `n/a` when missing. */
export const formatValue = (x: number | null): string => (x === null ? 'n/a' : String(Number(x.toFixed(4))));
