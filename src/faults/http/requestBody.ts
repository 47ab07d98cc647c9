/** A form body's value: a string, or the arrays and objects that bracketed keys build. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };

/** JSON when it parses, the text itself when it does not, `undefined` when empty: for a body that names no type. */
export function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * A request body read the way its `Content-Type` says: JSON (`application/json`, `+json`),
 * a form (`application/x-www-form-urlencoded`, see `parseForm`), or the text itself for any
 * other type. JSON that does not parse stays text, so the route's schema refuses it with a
 * 400 rather than the server crashing. No type at all: JSON if it parses, else the text.
 * An empty body is `undefined` whatever the type.
 */
export function parseRequestBody(text: string, contentType: string | undefined): unknown {
  if (text === '') return undefined;
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === '') return parseBody(text);
  if (type === 'application/x-www-form-urlencoded') return parseForm(text);
  if (type === 'application/json' || type.endsWith('+json')) return parseBody(text);
  return text;
}

const BRACKETED = /^([^[\]]+)((?:\[[^[\]]*\])+)$/;

/** `metadata[order]` → `['metadata', 'order']`; `expand[]` → `['expand', '']`; any other key is taken whole. */
function keyPath(key: string): string[] {
  const m = BRACKETED.exec(key);
  if (!m) return [key];
  return [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((s) => s[1]!)];
}

type Node = { [key: string]: Node | string };

// Own properties, even for `__proto__` or `constructor`: a form field never reaches a prototype.
const put = <V>(node: Record<string, V>, key: string, value: V): void => {
  Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
};
const own = (node: Node, key: string): Node | string | undefined => (Object.hasOwn(node, key) ? node[key] : undefined);
const nextIndex = (node: Node): string => String(Object.keys(node).length);

/**
 * An `application/x-www-form-urlencoded` body as the object a server framework hands its
 * handler (the `qs` convention Stripe's API and SDKs use): `metadata[order]=1` is
 * `{ metadata: { order: '1' } }`; `expand[]=a&expand[]=b`, `expand[0]=a&expand[1]=b` and a
 * repeated `expand=a&expand=b` are `['a', 'b']`; `items[0][price]=p` is `[{ price: 'p' }]`.
 * Values stay strings, as on the wire. A key that both holds a value and nests (`a=1&a[b]=2`)
 * keeps the nested one.
 */
export function parseForm(text: string): Record<string, FormValue> {
  const root: Node = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = keyPath(key);
    let node = root;
    for (const [i, raw] of path.entries()) {
      const segment = raw === '' ? nextIndex(node) : raw;
      if (i === path.length - 1) {
        const existing = own(node, segment);
        if (existing === undefined) put(node, segment, value);
        else if (typeof existing === 'string') put(node, segment, { '0': existing, '1': value });
        else put(existing, nextIndex(existing), value);
        break;
      }
      const child = own(node, segment);
      if (typeof child === 'object') node = child;
      else {
        const fresh: Node = {};
        put(node, segment, fresh);
        node = fresh;
      }
    }
  }
  return arrays(root) as Record<string, FormValue>;
}

/** Objects keyed `0..n-1` become arrays, deepest first. */
function arrays(node: Node | string): FormValue {
  if (typeof node === 'string') return node;
  const keys = Object.keys(node);
  // Integer keys come first and in ascending order, so `0..n-1` shows as the first n keys.
  if (keys.length > 0 && keys.every((k, i) => k === String(i))) return keys.map((k) => arrays(node[k]!));
  const out: Record<string, FormValue> = {};
  for (const k of keys) put(out, k, arrays(node[k]!));
  return out;
}
