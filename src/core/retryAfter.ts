const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * The three HTTP-date forms of RFC 9110 §5.6.7, parsed by hand: `Date.parse` reads the
 * asctime form in the local time zone, which would make a trial depend on the machine.
 */
const HTTP_DATE_FORMS: readonly { readonly re: RegExp; readonly year: (y: string) => number }[] = [
  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
  { re: /^[a-z]{3}, (\d{2}) ([a-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) gmt$/i, year: Number },
  // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT (two-digit years: RFC 9110 says read 50+ as the past century)
  {
    re: /^[a-z]+, (\d{2})-([a-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) gmt$/i,
    year: (y) => (Number(y) >= 50 ? 1900 : 2000) + Number(y),
  },
];
// asctime: Sun Nov  6 08:49:37 1994 (fields in another order)
const ASCTIME = /^[a-z]{3} ([a-z]{3}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/i;

function utc(day: string, month: string, year: number, h: string, m: string, s: string): number | undefined {
  const mon = MONTHS.indexOf(month.toLowerCase());
  if (mon < 0) return undefined;
  const ms = Date.UTC(year, mon, Number(day), Number(h), Number(m), Number(s));
  return Number.isFinite(ms) ? ms : undefined;
}

/** Milliseconds since the epoch for an HTTP-date, or `undefined` if the text is not one. */
export function parseHttpDate(text: string): number | undefined {
  for (const form of HTTP_DATE_FORMS) {
    const m = form.re.exec(text);
    if (m) return utc(m[1]!, m[2]!, form.year(m[3]!), m[4]!, m[5]!, m[6]!);
  }
  const a = ASCTIME.exec(text);
  return a ? utc(a[2]!, a[1]!, Number(a[6]), a[3]!, a[4]!, a[5]!) : undefined;
}

/**
 * A `Retry-After` value as milliseconds to wait from `nowMs` (R9): delta-seconds or an
 * HTTP-date. A date already past means "now" (0); anything else unreadable is `undefined`,
 * so the caller falls back to its own backoff instead of trusting garbage.
 *
 * @example parseRetryAfter('120', now) // 120_000
 * @example parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', now)
 */
export function parseRetryAfter(value: string | number | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value * 1000 : undefined;
  const text = value.trim();
  // RFC 9110 allows only digits; a decimal is read too, as browsers and most SDKs do.
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const at = parseHttpDate(text);
  return at === undefined ? undefined : Math.max(0, at - nowMs);
}
