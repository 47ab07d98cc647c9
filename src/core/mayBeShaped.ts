/**
 * Whether `raw` may match `/sk-|_live_|_test_|bearer|authorization|["=\\\u0000-\u001f\ud800-\udfff]/i`
 * (the secrets walk's first test of a string): `false` only where that pattern cannot match. A
 * record's strings are mostly short ids made fresh each trial (`req-7`, `call-2`), and reading
 * their characters costs less than the pattern, or than hashing them for the clean-string cache.
 *
 * Exact for ASCII letters only, which is all the pattern needs: without the `u` flag, `i` folds
 * no other character onto an ASCII one (`ſ` is not `s`, `K` is not `k`).
 */
export function mayBeShaped(raw: string): boolean {
  const n = raw.length;
  for (let i = 0; i < n; i++) {
    const c = raw.charCodeAt(i);
    // A character JSON escapes, or `=`, `_` (`_live_`, `_test_`: any underscore, a superset).
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3d || c === 0x5f || (c >= 0xd800 && c <= 0xdfff)) return true;
    // `| 0x20` folds an ASCII capital onto its small letter (and nothing else onto a small letter).
    const lower = c | 0x20;
    if (c === 0x2d && i >= 2 && (raw.charCodeAt(i - 1) | 0x20) === 0x6b && (raw.charCodeAt(i - 2) | 0x20) === 0x73) return true; // sk-
    if (lower === 0x62 && wordAt(raw, i, 'bearer')) return true;
    if (lower === 0x61 && wordAt(raw, i, 'authorization')) return true;
  }
  return false;
}

/** Whether `word` (small letters) starts at `i` of `raw`, in either case. */
function wordAt(raw: string, i: number, word: string): boolean {
  if (i + word.length > raw.length) return false;
  for (let j = 1; j < word.length; j++) if ((raw.charCodeAt(i + j) | 0x20) !== word.charCodeAt(j)) return false;
  return true;
}
