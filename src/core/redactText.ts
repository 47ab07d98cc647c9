export const REDACTED = '[REDACTED]';

/*
 * One story for every output (R13): a declared secret is replaced wherever it appears; an
 * undeclared one only where it is shaped like a credential. A shape is a key format (`sk-…`,
 * `sk_live_…`), a `Bearer` token, an `Authorization` value with its scheme, a `name=value` pair
 * of a query string or form body, or a JSON field, object key or header whose *name* says
 * credential (`password`, `api_key`, `accessToken`, `x-api-key`…) holding a string. Words alone
 * are not shapes: "the basic plan", "refresh-token: rotated", `/etc/passwd: expected a folder`
 * stay as written, so faultline's own messages about paths and flags are never touched.
 */

/** Whole names, or `_`/`-` suffixes of names, that hold credentials (case-insensitive). */
const SECRET_NAME = new RegExp(
  [
    String.raw`^(?:[\w.-]*[_.-])?`,
    '(?:password|passwd|pwd|passphrase|secret|client[_-]?secret|token|api[_-]?key|apikey|access[_-]?key',
    '|private[_-]?key|secret[_-]?key|authorization|proxy-authorization|cookie|set-cookie|credentials?)$',
  ].join(''),
  'i',
);
/** camelCase names that end in a credential word: `accessToken`, `clientSecret`, `openaiApiKey` (not `idempotencyKey`). */
const SECRET_CAMEL = /[a-z0-9](?:Password|Passwd|Secret|Token|ApiKey|AccessKey|PrivateKey|SecretKey)$/;

/** Whether a field, header or parameter named `name` holds a credential, whatever its value looks like. */
export const isSecretName = (name: string): boolean => SECRET_NAME.test(name) || SECRET_CAMEL.test(name);

const TOKEN_CHARS = String.raw`[A-Za-z0-9._~+/=-]`;
/** Authorization schemes (RFC 9110 and common APIs): a word before a credential, not prose. */
const SCHEMES = 'Bearer|Basic|Digest|Token|Negotiate|NTLM|AWS4-HMAC-SHA256|ApiKey|Key|OAuth|DPoP|HOBA|Mutual';

/** Secret shapes in free text; each replacement keeps what says where the secret was. */
export const SECRET_PATTERNS: readonly {
  readonly pattern: RegExp;
  readonly replace: string | ((match: string, ...groups: string[]) => string);
}[] = [
  // API keys: OpenAI (`sk-`, `sk-proj-`), Anthropic (`sk-ant-`), Stripe-style live and test keys.
  {
    pattern: /\b(?:sk-(?:proj-|ant-|svcacct-|admin-)?[A-Za-z0-9_-]{8,}|(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{8,})/g,
    replace: REDACTED,
  },
  // An Authorization value (a scheme and its credential, or one long token), as a header line, a curl flag or `key: value` text.
  {
    pattern: new RegExp(
      [
        String.raw`\b((?:proxy-)?authorization)(["']?\s*[:=]\s*["']?)`,
        String.raw`(?:(?:${SCHEMES})\s+${TOKEN_CHARS}{4,}|(?=${TOKEN_CHARS}*[0-9._~+/=-])${TOKEN_CHARS}{16,})`,
      ].join(''),
      'gi',
    ),
    replace: (_m, name, sep) => `${name}${sep}${REDACTED}`,
  },
  // A bearer token: six or more token characters, with a digit or a symbol (not "the bearer of").
  {
    pattern: new RegExp(String.raw`\b(Bearer)\s+(?=${TOKEN_CHARS}*[0-9._~+/=-])${TOKEN_CHARS}{6,}`, 'gi'),
    replace: `$1 ${REDACTED}`,
  },
  // `password=…`, `api_key=…`, `access_token=…` in a query string or a form body.
  {
    pattern: /(^|[?&;\s])([\w.\-[\]]+)=([^&\s#"']+)/g,
    replace: (m, lead, name, value) =>
      isSecretName(name.replace(/\[.*$/, '')) && value !== REDACTED ? `${lead}${name}=${REDACTED}` : m,
  },
  // A JSON field named like a credential holding a string: first as it reads inside a JSON string (`\\"token\\":\\"…\\"`), then plain.
  {
    pattern: /\\"([\w.-]{1,80})\\"(\s*:\s*)\\"((?:[^"\\]|\\[^"])*)\\"/g,
    replace: (m, name, sep, value) =>
      isSecretName(name) && value !== REDACTED ? `\\"${name}\\"${sep}\\"${REDACTED}\\"` : m,
  },
  {
    pattern: /"([\w.-]{1,80})"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g,
    replace: (m, name, sep, value) => (isSecretName(name) && value !== REDACTED ? `"${name}"${sep}"${REDACTED}"` : m),
  },
];

// One cheap test before the patterns: most strings hold none of these, and skip the rest.
const MAYBE_SECRET = /sk-|_live_|_test_|bearer|authoriz|=|":/i;

/** `text` with every one of `secrets` and every credential-shaped secret replaced by `[REDACTED]`. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) if (s.length > 0 && out.includes(s)) out = out.split(s).join(REDACTED);
  if (!MAYBE_SECRET.test(out)) return out;
  for (const { pattern, replace } of SECRET_PATTERNS)
    out = out.replace(pattern, replace as (m: string, ...g: string[]) => string);
  return out;
}

// A whole header value that is a scheme and a credential is one, however short (`Bearer abc`).
const SCHEME_VALUE = new RegExp(String.raw`^(Bearer|Basic|Digest|Token)\s+\S+$`, 'i');
const headerValue = (value: string, secrets: readonly string[]): string => {
  const scheme = SCHEME_VALUE.exec(value.trim());
  return scheme ? `${scheme[1]} ${REDACTED}` : redactText(value, secrets);
};

/**
 * HTTP headers fit to print: credential headers (`Authorization`, `Cookie`, API-key headers)
 * replaced whole, credential shapes in any other header replaced, declared or not.
 */
export function redactHeaders<H extends Readonly<Record<string, unknown>>>(
  headers: H,
  secrets: readonly string[] = [],
): H {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || value === null) out[name] = value;
    else if (isSecretName(name)) out[name] = REDACTED;
    else if (typeof value === 'string') out[name] = headerValue(value, secrets);
    else if (Array.isArray(value)) out[name] = value.map((v) => (typeof v === 'string' ? headerValue(v, secrets) : v));
    else out[name] = value;
  }
  return out as H;
}
