import { REDACTED, redactText } from '../core/secretText.js';

export { REDACTED, SECRET_PATTERNS, redactHeaders, redactText, scrubSecrets } from '../core/secretText.js';

/** Object keys whose values are secrets whatever they look like. */
const SECRET_KEYS = /^(password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|client[_-]?secret|authorization|cookie|set-cookie|x-api-key)$/i;

/**
 * A copy of `value` with `secrets` and common secret shapes replaced everywhere, at any depth
 * (R13). Errors become plain objects (name, message, stack, code, status) so logs keep them.
 */
export function redact<T>(value: T, secrets: readonly string[] = []): T {
  const seen = new WeakMap<object, unknown>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v, secrets);
    if (typeof v !== 'object' || v === null) return v;
    const known = seen.get(v);
    if (known !== undefined) return known;
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      seen.set(v, out);
      for (const item of v) out.push(walk(item));
      return out;
    }
    const out: Record<string, unknown> = {};
    seen.set(v, out);
    const source: Record<string, unknown> =
      v instanceof Error ? { name: v.name, message: v.message, stack: v.stack, ...(v as unknown as Record<string, unknown>) } : (v as Record<string, unknown>);
    for (const [k, item] of Object.entries(source)) out[k] = SECRET_KEYS.test(k) && item !== undefined && item !== null ? REDACTED : walk(item);
    return out;
  };
  return walk(value) as T;
}
