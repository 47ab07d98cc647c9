export const REDACTED = '[REDACTED]';

/** Secret shapes found in free text: API keys, bearer tokens, credentials in query strings and JSON-ish text. */
export const SECRET_PATTERNS: readonly { readonly pattern: RegExp; readonly replace: string }[] = [
  { pattern: /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{8,}/g, replace: REDACTED },
  { pattern: /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, replace: `$1 ${REDACTED}` },
  { pattern: /\b(password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|client[_-]?secret)(\s*[=:]\s*)("?)[^\s&",;]+/gi, replace: `$1$2$3${REDACTED}` },
];

// One cheap test before the patterns: most strings hold none of these words, and skip the rest.
const MAYBE_SECRET = /sk-|bearer|basic|password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key/i;

/** Header names whose values are credentials whatever they look like. */
const SECRET_HEADERS = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|x-auth-token|x-goog-api-key|anthropic-api-key)$/i;

/** `text` with every one of `secrets` and every common secret shape replaced by `[REDACTED]`. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) if (s.length > 0 && out.includes(s)) out = out.split(s).join(REDACTED);
  if (!MAYBE_SECRET.test(out)) return out;
  for (const { pattern, replace } of SECRET_PATTERNS) out = out.replace(pattern, replace);
  return out;
}

/**
 * HTTP headers fit to print: credential headers (`Authorization`, `Cookie`, API-key headers)
 * replaced whole, bearer tokens and `sk-…` keys in any other header replaced, declared or not.
 */
export function redactHeaders<H extends Readonly<Record<string, unknown>>>(headers: H, secrets: readonly string[] = []): H {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || value === null) out[name] = value;
    else if (SECRET_HEADERS.test(name)) out[name] = REDACTED;
    else if (typeof value === 'string') out[name] = redactText(value, secrets);
    else if (Array.isArray(value)) out[name] = value.map((v) => (typeof v === 'string' ? redactText(v, secrets) : v));
    else out[name] = value;
  }
  return out as H;
}

// The patterns above, loosened to match inside JSON text too, where a line break reads `\n`.
const SPACE = String.raw`(?:\s|\\[nrt])`;
const IN_JSON = [
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{8,}/,
  new RegExp(String.raw`\b(?:Bearer|Basic)${SPACE}+[A-Za-z0-9._~+/=-]`, 'i'),
  new RegExp(String.raw`\b(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|client[_-]?secret)${SPACE}*[=:]`, 'i'),
];

/**
 * One pass over the JSON text instead of a walk: a trial's record rarely holds a secret, and
 * walking every string and key costs ten times what stringifying does. Declared secrets are
 * looked for as JSON spells them, as the `secrets` checker does.
 */
function mayHoldSecrets(value: unknown, secrets: readonly string[]): boolean {
  let text: string | undefined;
  try {
    // Errors stringify as `{}`: spell out what the walk would look at.
    text = JSON.stringify(value, (_key, v: unknown) => (v instanceof Error ? { ...v, name: v.name, message: v.message } : v));
  } catch {
    return true; // a cycle or a BigInt: walk it to be sure
  }
  if (text === undefined) return typeof value === 'string';
  return secrets.some((s) => text.includes(JSON.stringify(s).slice(1, -1))) || IN_JSON.some((p) => p.test(text));
}

/**
 * `value` with `secrets` and common secret shapes replaced in every string and object key, at
 * any depth; the parts with nothing to replace are the very same objects (no copy), so a
 * history with no secret in it costs one scan. Unlike `redact` (for logs), keys named
 * `token` or `secret` keep their values: this scrubs what a trial recorded, which reports show.
 */
export function scrubSecrets<T>(value: T, secrets: readonly string[] = []): T {
  const wanted = secrets.filter((s) => s.length > 0);
  if (!mayHoldSecrets(value, wanted)) return value;
  const seen = new Map<object, unknown>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v, wanted);
    if (typeof v !== 'object' || v === null) return v;
    if (seen.has(v)) return seen.get(v);
    seen.set(v, v);
    if (Array.isArray(v)) {
      let changed = false;
      const items = v.map((item) => {
        const next = walk(item);
        if (next !== item) changed = true;
        return next;
      });
      const out = changed ? items : v;
      seen.set(v, out);
      return out;
    }
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto !== Object.prototype && proto !== null && !(v instanceof Error)) return v;
    const source: Record<string, unknown> = v instanceof Error ? { name: v.name, message: v.message, ...(v as unknown as Record<string, unknown>) } : (v as Record<string, unknown>);
    let changed = v instanceof Error;
    const entries = Object.entries(source).map(([k, item]) => {
      const key = redactText(k, wanted);
      const next = walk(item);
      if (key !== k || next !== item) changed = true;
      return [key, next] as const;
    });
    const out = changed ? Object.fromEntries(entries) : v;
    seen.set(v, out);
    return out;
  };
  return walk(value) as T;
}
