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
    // A character JSON escapes, or `=`.
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3d || (c >= 0xd800 && c <= 0xdfff)) return true;
    if (c === 0x5f) {
      if (wordAt(raw, i, '_live_') || wordAt(raw, i, '_test_')) return true;
      continue;
    }
    // `| 0x20` folds an ASCII capital onto its small letter (and nothing else onto a small letter).
    const lower = c | 0x20;
    if (lower === 0x73 && wordAt(raw, i, 'sk-')) return true;
    if (lower === 0x62 && wordAt(raw, i, 'bearer')) return true;
    if (lower === 0x61 && wordAt(raw, i, 'authorization')) return true;
  }
  return false;
}

/** Whether `word` (small letters, `_` and `-`) starts at `i` of `raw`, its letters in either case (its first character the caller's to check). */
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
