import { asJson, IN_JSON, inLiteral, STRUCTURE } from './secretPatterns.js';
import { isSecretName, REDACTED, redactText } from './redactText.js';
import { spellErrors } from './printedJson.js';
import { walkTokens } from './walkTokens.js';

export { isSecretName, REDACTED, redactHeaders, redactText, SECRET_PATTERNS } from './redactText.js';

/**
 * The JSON-text scan: `value`'s JSON text (errors spelled out) against `IN_JSON`, and each
 * declared secret as JSON spells it, as the `secrets` checker looks for it. `walkSecrets` falls
 * back to it where a walk cannot see what JSON prints (a `toJSON`, an Error, a class instance,
 * past `MAX_DEPTH`), and the property test holds the walk to it.
 */
export function scanSecretsText(value: unknown, secrets: readonly string[]): boolean {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, spellErrors);
  } catch {
    return true; // a cycle or a BigInt: walk it to be sure
  }
  if (text === undefined) return typeof value === 'string';
  return secrets.some((s) => text.includes(asJson(s))) || IN_JSON.some((p) => p.test(text));
}

/**
 * Whether `value` may hold a secret, as `scanSecretsText` would answer, by walking its strings
 * and the keys of its plain objects and arrays instead of printing it: most records hold none,
 * and a walk that finds nothing to look at allocates nothing. It also finds what the text scan
 * missed (`MISSED`). `secrets` must hold no empty string.
 */
export function walkSecrets(value: unknown, secrets: readonly string[]): boolean {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return false; // JSON prints nothing
  if (secrets.some((s) => STRUCTURE.test(asJson(s))))
    return scanSecretsText(value, secrets) || walkTokens(value, [], false);
  const wanted = secrets.map(asJson);
  return walkTokens(value, wanted, wanted.some(inLiteral));
}

/** A boxed string, number or boolean as its value, as JSON prints it. */
const unboxed = (v: unknown): unknown =>
  v instanceof String || v instanceof Number || v instanceof Boolean ? v.valueOf() : v;

const hasToJSON = (v: unknown): v is { toJSON(key: string): unknown } =>
  typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function';

/**
 * `value` with `secrets` and credential shapes replaced in every string and object key, at
 * any depth, and the string value of every field named like a credential (`isSecretName`);
 * the parts with nothing to replace are the very same objects (no copy), so a history with
 * no secret in it costs one scan.
 */
export function scrubSecrets<T>(value: T, secrets: readonly string[] = []): T {
  const wanted = secrets.filter((s) => s.length > 0);
  if (!walkSecrets(value, wanted)) return value;
  const seen = new Map<object, unknown>();
  /**
   * What JSON prints for `v` under `key`, scrubbed: a toJSON is called once, with the key, as
   * JSON calls it (not once to look and again to scrub), and its output is scrubbed in its place;
   * the object itself stays when that output holds nothing. `named`: the key names a credential,
   * so a string printed there is one.
   */
  const scrubAt = (v: unknown, key: string, named = false): unknown => {
    const shown = unboxed(hasToJSON(v) ? v.toJSON(key) : v);
    if (named && typeof shown === 'string') return REDACTED;
    const next = walk(shown);
    return next === shown ? v : next;
  };
  // Not called on an object with a toJSON (scrubAt calls it), nor on what a toJSON returned, as JSON does not either.
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v, wanted);
    if (typeof v !== 'object' || v === null) return v;
    if (seen.has(v)) return seen.get(v);
    seen.set(v, v);
    if (Array.isArray(v)) {
      let changed = false;
      const items = v.map((item, i) => {
        const next = scrubAt(item, String(i));
        if (next !== item) changed = true;
        return next;
      });
      const out = changed ? items : v;
      seen.set(v, out);
      return out;
    }
    // A class instance prints its own enumerable fields, as a plain object does (and as
    // Object.entries lists them): scrubbed into a plain copy when one holds a secret, kept as it
    // is otherwise. An Error also prints its name and message.
    const source: Record<string, unknown> =
      v instanceof Error
        ? { name: v.name, message: v.message, ...(v as unknown as Record<string, unknown>) }
        : (v as Record<string, unknown>);
    let changed = v instanceof Error;
    const entries: (readonly [string, unknown])[] = [];
    for (const [k, item] of Object.entries(source)) {
      // Only in what a toJSON returned: a copy keeps no toJSON, or JSON would print the unscrubbed object again.
      if (k === 'toJSON' && typeof item === 'function') continue;
      const key = redactText(k, wanted);
      const next = scrubAt(item, k, isSecretName(k));
      if (key !== k || next !== item) changed = true;
      entries.push([key, next]);
    }
    const out = changed ? Object.fromEntries(entries) : v;
    seen.set(v, out);
    return out;
  };
  return scrubAt(value, '') as T;
}
