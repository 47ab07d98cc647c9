import { isSecretName, REDACTED, redactText } from '../core/secretText.js';

export {
  isSecretName,
  REDACTED,
  SECRET_PATTERNS,
  redactHeaders,
  redactText,
  scrubSecrets,
} from '../core/secretText.js';

/**
 * A copy of `value` with `secrets` and credential shapes replaced everywhere, at any depth, and
 * the string value of every field named like a credential (R13; the rules of `redactText`). Errors become plain
 * objects (name, message, stack, code, status) so logs keep them.
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
      v instanceof Error
        ? { name: v.name, message: v.message, stack: v.stack, ...(v as unknown as Record<string, unknown>) }
        : (v as Record<string, unknown>);
    for (const [k, item] of Object.entries(source))
      out[k] = isSecretName(k) && typeof item === 'string' ? REDACTED : walk(item);
    return out;
  };
  return walk(value) as T;
}
