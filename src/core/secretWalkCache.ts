/**
 * The secrets walk's module-wide caches: the strings it judged clean, and per object key its
 * verdict, its clean values and the keys that followed it. Records repeat their keys and most of
 * their strings from trial to trial, so each is judged once.
 */
import { mayBeShaped } from './mayBeShaped.js';
import { redactText } from './redactText.js';
import { IN_TOKEN, IN_TOKEN_I, inJson, MISSED } from './secretPatterns.js';

// One test before the exact ones (`mayBeShaped`): every pattern of secretPatterns.ts needs one of its words or
// characters in the raw string, and any character JSON escapes sends the string to the exact
// tests on its escaped form.

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
export function tokenMayHold(raw: string): boolean {
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
export const KEY_HOLDS = 1;
export const KEY_NAMES = 2;
/**
 * A key's verdict, and the last string value under it that `tokenMayHold` judged clean: most
 * string values repeat the last one under the same key (`tool`, `call`, `message`), and comparing
 * with it costs less than the clean-string cache's lookup. `tokenMayHold` answers by the string
 * alone, so a string equal to `clean` gets its answer, `false`.
 */
export interface KeyEntry {
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
export const FIRST_KEY: KeyEntry = newEntry(0);

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
export function keyAfter(previous: KeyEntry, key: string): KeyEntry {
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
export function valueMayHold(entry: KeyEntry, value: string): boolean {
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
