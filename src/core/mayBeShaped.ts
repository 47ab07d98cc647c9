/**
 * `/sk-|_live_|_test_|bearer|authorization|["=\\\u0000-\u001f\ud800-\udfff]/i.test(raw)`, the
 * secrets walk's first test of a string (every credential shape needs one of these, and any
 * character JSON escapes sends the string to the exact tests on its escaped form), by reading
 * the characters: a record's strings are mostly short ids made fresh each trial (`req-7`,
 * `call-2`), and a loop over them costs less than the pattern, or than hashing them for the
 * clean-string cache.
 *
 * Letters compare in either case, ASCII only, as the pattern does: without the `u` flag, `i`
 * folds no other character onto an ASCII one (`ſ` is not `s`, `K` is not `k`).
 */
export function mayBeShaped(raw: string): boolean {
  const n = raw.length;
  for (let i = 0; i < n; i++) {
    const c = raw.charCodeAt(i);
    // Past ASCII only a surrogate counts: no other character folds onto an ASCII letter.
    if (c >= 0x80) {
      if (c >= 0xd800 && c <= 0xdfff) return true;
      continue;
    }
    const role = ROLE[c]!;
    if (role === NOTHING) continue;
    if (role === SHAPED) return true;
    if (role === UNDERSCORE) {
      if (wordAt(raw, i, '_live_') || wordAt(raw, i, '_test_')) return true;
    } else if (wordAt(raw, i, role === S ? 'sk-' : role === B ? 'bearer' : 'authorization')) return true;
  }
  return false;
}

/*
 * What an ASCII character starts, looked up in one read: a record's strings are mostly letters,
 * digits and `-`, and eight comparisons a character cost more than the lookup (the crowd's
 * strings took 1.3-1.7x as long).
 */
const NOTHING = 0;
/** A character JSON escapes, or `=`: the string is shaped. */
const SHAPED = 1;
const UNDERSCORE = 2;
/** The first letter of `sk-`, `bearer`, `authorization`, in either case. */
const S = 3;
const B = 4;
const A = 5;
const ROLE = new Uint8Array(0x80);
for (let c = 0; c < 0x20; c++) ROLE[c] = SHAPED;
for (const c of '"\\=') ROLE[c.charCodeAt(0)] = SHAPED;
ROLE[0x5f] = UNDERSCORE;
for (const [letter, role] of [
  ['s', S],
  ['b', B],
  ['a', A],
] as const) {
  ROLE[letter.charCodeAt(0)] = role;
  ROLE[letter.toUpperCase().charCodeAt(0)] = role;
}

/**
 * Whether `word` (small letters, `_` and `-`) starts at `i` of `raw`, its letters in either case (its first character
 * the caller's to check).
 */
function wordAt(raw: string, i: number, word: string): boolean {
  if (i + word.length > raw.length) return false;
  for (let j = 1; j < word.length; j++) {
    const c = raw.charCodeAt(i + j);
    const w = word.charCodeAt(j);
    // A small letter matches itself or its capital, any other character only itself.
    if (c !== w && !(w >= 0x61 && (c | 0x20) === w)) return false;
  }
  return true;
}
