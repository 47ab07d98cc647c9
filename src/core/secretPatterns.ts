// The shapes of redactText.ts as they read inside a record's JSON text: a cheap superset, the walk decides.
const SPACE = String.raw`(?:\s|\\[nrt])`;
const SECRET_WORD =
  'password|passwd|pwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|secret[_-]?key|cookie|credentials?';
export const IN_JSON = [
  /\b(?:sk-[A-Za-z0-9_-]{8,}|(?:sk|pk|rk)_(?:live|test)_)/,
  new RegExp(String.raw`\bBearer${SPACE}+[A-Za-z0-9._~+/=-]`, 'i'),
  /authorization/i,
  new RegExp(String.raw`(?:${SECRET_WORD})(?:\\*"\s*:\s*\\*"|=)`, 'i'),
];

/** `s` as it reads between the quotes of JSON text. */
export const asJson = (s: string): string => JSON.stringify(s).slice(1, -1);

/*
 * `IN_JSON` one JSON token at a time. Within a string or key (as JSON escapes it) the patterns
 * read the same as in the whole text: quotes end every character class, and the `\b` before a
 * token's first character sees the opening quote either way. The one pattern that spans tokens,
 * a credential word closing a key whose value is a string (`token":"`), is tested on the key
 * with `":"` after it.
 */
export const IN_TOKEN = IN_JSON[0]!;
export const IN_TOKEN_I = new RegExp(
  IN_JSON.slice(1)
    .map((p) => p.source)
    .join('|'),
  'i',
);
// What redactText finds and the text scan missed, on the raw string: a `Bearer` after any
// whitespace JSON escapes as `\u000b` or `\f`, and a credential name with a bracket suffix (`password[0]=`).
export const MISSED = new RegExp(String.raw`\bBearer\s+[A-Za-z0-9._~+/=-]|(?:${SECRET_WORD})\[[\w.\-[\]]*=`, 'i');
// Characters JSON.stringify escapes (lone surrogates among the surrogates; testing all of them only costs a needless stringify).
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;
// Characters that let a declared secret span two tokens of the text; such a secret is looked for in the text.
export const STRUCTURE = /["\\:,{}[\]]/;
// A declared secret that could sit inside a number, `true`, `false` or `null` as JSON prints them
// (no scrub can take it out of one: the property test leaves such secrets out of its law).
export const inLiteral = (s: string): boolean =>
  /^[0-9.eE+-]+$/.test(s) || ['true', 'false', 'null'].some((w) => w.includes(s));

/** `asJson(raw)`, without the stringify for a string with nothing to escape (most of them). */
export const inJson = (raw: string): string => (ESCAPED.test(raw) ? asJson(raw) : raw);
