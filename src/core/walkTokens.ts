import { plain, printed, PARSED, prototypeEnumerates, UNPRINTABLE } from './printedJson.js';
import { inJson } from './secretPatterns.js';
import { FIRST_KEY, KEY_HOLDS, KEY_NAMES, keyAfter, tokenMayHold, valueMayHold } from './secretWalkCache.js';

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

/** What one walk looks for; one object per walk, in place of the closures over these. */
interface Walk {
  /** The declared secrets, as JSON spells them. */
  readonly wanted: readonly string[];
  /** Whether a declared secret could sit inside a number, `true`, `false` or `null` (`inLiteral`). */
  readonly literals: boolean;
  /** Whether Object.prototype has an enumerable key, which a for-in lists too (`prototypeEnumerates`). */
  readonly inherited: boolean;
}

/**
 * Whether `root` may hold a secret: its strings, keys and literals judged one JSON token at a time
 * (`IN_JSON`, what the text scan missed, the declared secrets in `wanted`), reading plain objects
 * and arrays field by field and printing only what a walk cannot see.
 */
export function walkTokens(root: unknown, wanted: readonly string[], literals: boolean): boolean {
  return walkValue({ wanted, literals, inherited: prototypeEnumerates() }, root, 0, false, '');
}

/**
 * `named`: `v` is the value of a key that names a credential, so a string there (as JSON prints it) is one. `key`:
 * the one `v` sits under.
 */
function walkValue(w: Walk, v: unknown, depth: number, named: boolean, key: string | number): boolean {
  // The declared secrets first: a string holding one ends the walk before a clean-string cache could keep it.
  if (typeof v === 'string') return named || (w.wanted.length !== 0 && declaredIn(w.wanted, v)) || tokenMayHold(v);
  if (typeof v !== 'object' || v === null) {
    if (typeof v === 'bigint') return true; // JSON.stringify throws on it: walk it to be sure
    return w.literals && literalHolds(w.wanted, v);
  }
  if (!plain(v, depth)) return printedHolds(w, v, named, key);
  return walkPlain(w, v, depth);
}

/** What JSON prints for `v` (not `plain`) under `key`, walked; nothing printed reads as `null`. */
function printedHolds(w: Walk, v: object, named: boolean, key: string | number): boolean {
  const shown = printed(v, key);
  return (
    shown === UNPRINTABLE ||
    (shown === undefined ? w.literals && literalHolds(w.wanted, null) : walkValue(w, shown, PARSED, named, key))
  );
}

/** A plain object or array (`plain` said so): its keys and items. */
function walkPlain(w: Walk, v: object, depth: number): boolean {
  return Array.isArray(v) ? walkArray(w, v, depth) : walkObject(w, v, depth);
}

function walkArray(w: Walk, v: readonly unknown[], depth: number): boolean {
  for (let i = 0; i < v.length; i++) {
    const item: unknown = v[i];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') {
      if (w.literals && literalHolds(w.wanted, null)) return true; // JSON prints `null` for it
    } else if (typeof item === 'object' && item !== null) {
      // An object item (a history's event) judged as `walkValue` judges it, with `plain` asked once: not
      // through `walkValue`, which would ask again (and read a toJSON getter a second time).
      if (plain(item, depth + 1)) {
        if (walkPlain(w, item, depth + 1)) return true;
      } else if (printedHolds(w, item, false, i)) return true;
    } else if (walkValue(w, item, depth + 1, false, i)) return true;
  }
  return false;
}

function walkObject(w: Walk, v: object, depth: number): boolean {
  const wanted = w.wanted;
  // for-in, not Object.keys and Object.values: V8 reads each value through the map's enum cache
  // (no keyed lookup, no two arrays per object). It also lists inherited enumerable keys, which
  // JSON leaves out: only a changed Object.prototype has any (`plain` let no other prototype in).
  let previous = FIRST_KEY;
  for (const k in v) {
    if (w.inherited && !Object.hasOwn(v, k)) continue;
    let item: unknown = (v as Record<string, unknown>)[k];
    let itemDepth = depth + 1;
    // A plain value is walked as such: `plain` is asked once per object, not again by `walkValue`.
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
    // A string value (most of a record's) judged here, as `walkValue` would, without the call.
    if (typeof item === 'string') {
      if ((verdict & KEY_NAMES) !== 0 || (wanted.length !== 0 && declaredIn(wanted, item)) || valueMayHold(entry, item))
        return true;
      continue;
    }
    // A number, boolean or null (a record's next most common values), as `walkValue` would judge it, without the call.
    if (typeof item === 'number' || typeof item === 'boolean' || item === null) {
      if (w.literals && literalHolds(wanted, item)) return true;
      continue;
    }
    if (known ? walkPlain(w, item as object, itemDepth) : walkValue(w, item, itemDepth, (verdict & KEY_NAMES) !== 0, k))
      return true;
  }
  return false;
}
