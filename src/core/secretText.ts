import { mayBeShaped } from './mayBeShaped.js';
import { isSecretName, REDACTED, redactText } from './redactText.js';
import { PARSED, plain, printed, prototypeEnumerates, spellErrors, UNPRINTABLE } from './printedJson.js';

export { isSecretName, REDACTED, redactHeaders, redactText, SECRET_PATTERNS } from './redactText.js';

// The shapes of redactText.ts as they read inside a record's JSON text: a cheap superset, the walk decides.
const SPACE = String.raw`(?:\s|\\[nrt])`;
const SECRET_WORD =
  'password|passwd|pwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|secret[_-]?key|cookie|credentials?';
const IN_JSON = [
  /\b(?:sk-[A-Za-z0-9_-]{8,}|(?:sk|pk|rk)_(?:live|test)_)/,
  new RegExp(String.raw`\bBearer${SPACE}+[A-Za-z0-9._~+/=-]`, 'i'),
  /authorization/i,
  new RegExp(String.raw`(?:${SECRET_WORD})(?:\\*"\s*:\s*\\*"|=)`, 'i'),
];

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

const asJson = (s: string): string => JSON.stringify(s).slice(1, -1);

/*
 * `IN_JSON` one JSON token at a time. Within a string or key (as JSON escapes it) the patterns
 * read the same as in the whole text: quotes end every character class, and the `\b` before a
 * token's first character sees the opening quote either way. The one pattern that spans tokens,
 * a credential word closing a key whose value is a string (`token":"`), is tested on the key
 * with `":"` after it.
 */
const IN_TOKEN = IN_JSON[0]!;
const IN_TOKEN_I = new RegExp(
  IN_JSON.slice(1)
    .map((p) => p.source)
    .join('|'),
  'i',
);
// What redactText finds and the text scan missed, on the raw string: a `Bearer` after any
// whitespace JSON escapes as `\u000b` or `\f`, and a credential name with a bracket suffix (`password[0]=`).
const MISSED = new RegExp(String.raw`\bBearer\s+[A-Za-z0-9._~+/=-]|(?:${SECRET_WORD})\[[\w.\-[\]]*=`, 'i');
// Characters JSON.stringify escapes (lone surrogates among the surrogates; testing all of them only costs a needless stringify).
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;
// Characters that let a declared secret span two tokens of the text; such a secret is looked for in the text.
const STRUCTURE = /["\\:,{}[\]]/;
// A declared secret that could sit inside a number, `true`, `false` or `null` as JSON prints them
// (no scrub can take it out of one: the property test leaves such secrets out of its law).
export const inLiteral = (s: string): boolean =>
  /^[0-9.eE+-]+$/.test(s) || ['true', 'false', 'null'].some((w) => w.includes(s));

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

// One test before the exact ones (`mayBeShaped`): every pattern above needs one of its words or
// characters in the raw string, and any character JSON escapes sends the string to the exact
// tests on its escaped form.

/** The string as it reads between the quotes of JSON text. */
const inJson = (raw: string): string => (ESCAPED.test(raw) ? asJson(raw) : raw);

// A record's strings repeat from trial to trial (tool names, event types, "Service Unavailable",
// a URL with a query, a JSON body a service answered): each is judged once. The strings that pass
// mayBeShaped (a quote or `=` is enough) and hold nothing are kept, since a lookup costs less than
// the exact tests. Only clean strings are kept (a module-wide cache must not hold a secret: the
// walk looks for the trial's declared secrets in a string before it asks this cache), and a full
// cache starts again, so strings of a later phase of a long run get their turn.
const cleanTokens = new Set<string>();
const CACHE_SIZE = 4096;
const TOKEN_CACHE_LENGTH = 1024;

/** Whether one string or key of a record matches a pattern as the text scan reads it, or one it missed (declared secrets apart). */
function tokenMayHold(raw: string): boolean {
  // Most strings hold nothing mayBeShaped looks for: read, not hashed for the cache (a fresh id each trial).
  if (!mayBeShaped(raw)) return false;
  if (raw.length > TOKEN_CACHE_LENGTH) return judgeToken(raw);
  if (cleanTokens.has(raw)) return false;
  const verdict = judgeToken(raw);
  if (!verdict) {
    if (cleanTokens.size >= CACHE_SIZE) cleanTokens.clear();
    cleanTokens.add(raw);
  }
  return verdict;
}

const judgeToken = (raw: string): boolean => {
  const text = inJson(raw);
  // What the text scan missed counts only where redactText would replace it (`/password[0]=x` is no query pair).
  return IN_TOKEN.test(text) || IN_TOKEN_I.test(text) || (MISSED.test(raw) && redactText(raw) !== raw);
};

/** A key's verdict: 1 when the key itself may hold a secret, 2 when it names one (`token":"`, for a string value). */
const KEY_HOLDS = 1;
const KEY_NAMES = 2;
/**
 * A key's verdict, and the last string value under it that `tokenMayHold` judged clean: most
 * string values repeat the last one under the same key (`tool`, `call`, `message`), and comparing
 * with it costs less than the clean-string cache's lookup. `tokenMayHold` answers by the string
 * alone, so a string equal to `clean` gets its answer, `false`.
 */
interface KeyEntry {
  readonly verdict: number;
  clean: string | undefined;
  /**
   * The clean strings seen under this key while they are few (`KEY_VALUES` at most): most keys
   * hold a handful of constants that take turns (`type`, `result`, `purpose`, `state`), where the
   * last value alone misses (a crowd's event types were scanned again 20,000 times a trial). A key
   * whose values are data (ids, idempotency keys, messages) outgrows it and keeps none from then on.
   * `tokenMayHold` answers by the string alone, so a string in it gets its answer, `false`.
   */
  values: Set<string> | undefined;
  /**
   * The keys that followed this one in the objects walked, and their entries (`NEXT_SLOTS` at
   * most, the oldest replaced first): an object's keys mostly come in an order seen before
   * (`seq`, `t`, `type`…), and comparing with them costs less than a lookup. One slot was not
   * enough: after `type` a history event goes on with `call`, `request`, `turn` or `op` by its
   * type, and 43 % of a ten-minute trial's keys missed it. Never the entry of a key that holds a secret.
   */
  readonly nextKeys: string[];
  readonly nextEntries: KeyEntry[];
  /** The slot the next new successor replaces once all are taken. */
  nextSlot: number;
}
const NEXT_SLOTS = 8;
const KEY_VALUES = 32;
/**
 * The longest string a key keeps among its values: the constants that take turns are short, and
 * 4,096 keys × 32 values of the clean-string cache's 1,024 characters would let the module hold
 * up to 134 MB; of 64, at most 8 MB (16 MB in two-byte strings).
 */
const KEY_VALUE_LENGTH = 64;
const newEntry = (verdict: number): KeyEntry => ({
  verdict,
  clean: undefined,
  values: new Set(),
  nextKeys: [],
  nextEntries: [],
  nextSlot: 0,
});
// Keys repeat across every trial (`type`, `seq`, `request`…): each is judged once. Bounded as the
// strings are, so keys that are data (order ids in a service's state) cannot grow it without end;
// a key that holds a secret is not kept.
const keyEntries = new Map<string, KeyEntry>();
function keyEntry(key: string): KeyEntry {
  let entry = keyEntries.get(key);
  if (entry === undefined) {
    // Not through tokenMayHold: its cache would keep the same key a second time.
    const holds = mayBeShaped(key) && judgeToken(key);
    entry = newEntry((holds ? KEY_HOLDS : 0) | (IN_TOKEN_I.test(`${inJson(key)}":"`) ? KEY_NAMES : 0));
    if (!holds) {
      if (keyEntries.size >= CACHE_SIZE) forgetKeys();
      keyEntries.set(key, entry);
    }
  }
  return entry;
}

/** What comes before an object's first key: its `nextKeys` are the first keys of the objects walked. */
const FIRST_KEY: KeyEntry = newEntry(0);

/**
 * A full key cache starts again, and so do the first keys: every other entry is reached through
 * them, so the entries of before (and the values they keep) go with the walk that holds the last
 * of them. Clearing the map alone left them reachable through the chains of successors, and a
 * record with 200,000 distinct keys kept them all. Entries made from then on never lead back to
 * one from before: a successor is always the map's entry for its key.
 */
function forgetKeys(): void {
  keyEntries.clear();
  FIRST_KEY.nextKeys.length = 0;
  FIRST_KEY.nextEntries.length = 0;
  FIRST_KEY.nextSlot = 0;
}

/**
 * What the walk's module-wide caches hold now: the key entries reachable from the first keys and
 * the key cache (through their successors), the clean strings cached, and the characters of every
 * string they keep. For the law that holds them bounded whatever records a run walks (a cache
 * that grows with the data is a leak in a long run, and in a worker that runs for hours).
 */
export function walkCacheFootprint(): {
  readonly entries: number;
  readonly cleanStrings: number;
  readonly keptChars: number;
} {
  const seen = new Set<KeyEntry>();
  const stack: KeyEntry[] = [FIRST_KEY, ...keyEntries.values()];
  let keptChars = 0;
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    if (seen.has(entry)) continue;
    seen.add(entry);
    keptChars += entry.clean?.length ?? 0;
    for (const v of entry.values ?? []) keptChars += v.length;
    stack.push(...entry.nextEntries);
  }
  for (const s of cleanTokens) keptChars += s.length;
  return { entries: seen.size, cleanStrings: cleanTokens.size, keptChars };
}

/** `keyEntry(key)` for the key after `previous`'s, through the keys that followed it before. */
function keyAfter(previous: KeyEntry, key: string): KeyEntry {
  const keys = previous.nextKeys;
  for (let i = 0; i < keys.length; i++) if (keys[i] === key) return previous.nextEntries[i]!;
  const entry = keyEntry(key);
  // A key that holds a secret ends the walk, and is not kept anywhere.
  if ((entry.verdict & KEY_HOLDS) === 0) {
    if (keys.length < NEXT_SLOTS) {
      keys.push(key);
      previous.nextEntries.push(entry);
    } else {
      const slot = previous.nextSlot;
      keys[slot] = key;
      previous.nextEntries[slot] = entry;
      previous.nextSlot = (slot + 1) % NEXT_SLOTS;
    }
  }
  return entry;
}

/** `tokenMayHold(value)` for a string value under a key, through the key's last clean value. */
function valueMayHold(entry: KeyEntry, value: string): boolean {
  if (value === entry.clean) return false;
  const values = entry.values;
  if (values !== undefined && values.has(value)) {
    entry.clean = value;
    return false;
  }
  if (tokenMayHold(value)) return true;
  // Only a string the clean-string cache would keep too: a module-wide cache holds no long string.
  if (value.length <= TOKEN_CACHE_LENGTH) {
    entry.clean = value;
    if (values !== undefined && value.length <= KEY_VALUE_LENGTH) {
      if (values.size < KEY_VALUES) values.add(value);
      else entry.values = undefined;
    }
  }
  return false;
}

/** Whether a string or key, as JSON prints it, holds one of the declared secrets. */
function declaredIn(wanted: readonly string[], raw: string): boolean {
  const text = inJson(raw);
  for (const s of wanted) if (text.includes(s)) return true;
  return false;
}

/** A number, boolean or null as JSON prints it, for a declared secret that could sit inside one. */
function literalHolds(wanted: readonly string[], v: unknown): boolean {
  const text = typeof v === 'number' || typeof v === 'boolean' || v === null ? JSON.stringify(v) : 'null';
  return wanted.some((s) => text.includes(s));
}

function walkTokens(root: unknown, wanted: readonly string[], literals: boolean): boolean {
  const inherited = prototypeEnumerates();
  /**
   * `named`: `v` is the value of a key that names a credential, so a string there (as JSON prints it) is one. `key`:
   * the one `v` sits under.
   */
  const walk = (v: unknown, depth: number, named: boolean, key: string | number): boolean => {
    // The declared secrets first: a string holding one ends the walk before a clean-string cache could keep it.
    if (typeof v === 'string') return named || (wanted.length !== 0 && declaredIn(wanted, v)) || tokenMayHold(v);
    if (typeof v !== 'object' || v === null) {
      if (typeof v === 'bigint') return true; // JSON.stringify throws on it: walk it to be sure
      return literals && literalHolds(wanted, v);
    }
    if (!plain(v, depth)) {
      const shown = printed(v, key);
      return (
        shown === UNPRINTABLE ||
        (shown === undefined ? literals && literalHolds(wanted, null) : walk(shown, PARSED, named, key))
      );
    }
    return walkPlain(v, depth);
  };
  /** A plain object or array (`plain` said so): its keys and items. */
  const walkPlain = (v: object, depth: number): boolean => {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') {
          if (literals && literalHolds(wanted, null)) return true; // JSON prints `null` for it
        } else if (typeof item === 'object' && item !== null) {
          // An object item (a history's event) judged as `walk` judges it, with `plain` asked once: not
          // through `walk`, which would ask again (and read a toJSON getter a second time).
          if (plain(item, depth + 1)) {
            if (walkPlain(item, depth + 1)) return true;
          } else {
            const shown = printed(item, i);
            if (
              shown === UNPRINTABLE ||
              (shown === undefined ? literals && literalHolds(wanted, null) : walk(shown, PARSED, false, i))
            )
              return true;
          }
        } else if (walk(item, depth + 1, false, i)) return true;
      }
      return false;
    }
    // for-in, not Object.keys and Object.values: V8 reads each value through the map's enum cache
    // (no keyed lookup, no two arrays per object). It also lists inherited enumerable keys, which
    // JSON leaves out: only a changed Object.prototype has any (`plain` let no other prototype in).
    let previous = FIRST_KEY;
    for (const k in v) {
      if (inherited && !Object.hasOwn(v, k)) continue;
      let item: unknown = (v as Record<string, unknown>)[k];
      let itemDepth = depth + 1;
      // A plain value is walked as such: `plain` is asked once per object, not again by `walk`.
      let known = false;
      if (typeof item === 'object' && item !== null) {
        if (plain(item, itemDepth)) known = true;
        else {
          // What JSON prints for it decides whether the key is printed at all.
          item = printed(item, k);
          if (item === UNPRINTABLE) return true;
          itemDepth = PARSED;
        }
      }
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue; // JSON leaves the key out
      // A key holding a declared secret ends the walk before the key cache sees it.
      if (wanted.length !== 0 && declaredIn(wanted, k)) return true;
      const entry = keyAfter(previous, k);
      previous = entry;
      const verdict = entry.verdict;
      if ((verdict & KEY_HOLDS) !== 0) return true;
      // A string value (most of a record's) judged here, as `walk` would, without the call.
      if (typeof item === 'string') {
        if (
          (verdict & KEY_NAMES) !== 0 ||
          (wanted.length !== 0 && declaredIn(wanted, item)) ||
          valueMayHold(entry, item)
        )
          return true;
        continue;
      }
      // A number, boolean or null (a record's next most common values), as `walk` would judge it, without the call.
      if (typeof item === 'number' || typeof item === 'boolean' || item === null) {
        if (literals && literalHolds(wanted, item)) return true;
        continue;
      }
      if (known ? walkPlain(item as object, itemDepth) : walk(item, itemDepth, (verdict & KEY_NAMES) !== 0, k))
        return true;
    }
    return false;
  };
  return walk(root, 0, false, '');
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
