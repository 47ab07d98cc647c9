import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { inLiteral } from './secretPatterns.js';
import { isSecretName, REDACTED, redactText, scanSecretsText, scrubSecrets, walkSecrets } from './secretText.js';
import { walkCacheFootprint } from './secretWalkCache.js';
import type * as secretText from './secretText.js';

/*
 * Laws of the secrets scan over random records (nested arrays and objects, credential-named
 * keys, credential shapes, declared secrets placed in any string or key, objects with a toJSON):
 *  1. The walk answers "may hold secrets" as the JSON-text scan does, except where the scan
 *     missed a secret: then the walk says yes and scrubbing really changes the record.
 *  2. After scrubSecrets, no declared secret and no credential-shaped value is left anywhere in
 *     what JSON prints of the result.
 */

// Declared secrets: plain ones, ones JSON escapes, ones that read as JSON structure, ones that fit in a number or literal.
const SECRETS = ['S3CRET', 'ACME-7', 'p@ss w0rd', 'k3y"x', 'tok:en', 'ne\nwline', 'br{ack]', '1500', 'true'];

const FRAGMENTS = [
  'ok',
  'create_order',
  'https://api.shop.test/orders',
  '?user=bob&',
  'password=hunter2',
  '&password[0]=x',
  'api_key[]=k1',
  'Bearer abc123',
  'Bearer\vabc123',
  'Bearer\fxyz789',
  'bearer\u00a0tok.en9',
  'sk-abcdefgh12345',
  'sk_live_abcdefgh12',
  'Authorization: Basic dXNlcjpwYXNz',
  '{"token":"t-1"}',
  '\\"secret\\":\\"s\\"',
  'the bearer of news',
  'token',
  'tokens',
  'a"b',
  'line\nbreak',
  '\\',
  ' ',
  '=',
  ':',
  '"',
  ',',
  '[',
  ']',
  '{',
  '}',
  '[REDACTED]',
  'idempotencyKey=k',
];
const KEYS = [
  'type',
  'seq',
  'input',
  'token',
  'password',
  'api_key',
  'accessToken',
  'idempotencyKey',
  'tokens',
  'x-api-key',
  'Authorization',
  'note',
  'mytoken',
  'password[0]',
  'a"b',
  'Bearer',
  'sk-abcdefgh12345',
  '1500',
];

/** Any class of the agent's: JSON prints its instances' own fields. */
class Holder {
  readonly kind = 'holder';
}

const recordOf = (secrets: readonly string[]): fc.Arbitrary<unknown> => {
  const piece = fc.oneof(
    fc.constantFrom(...FRAGMENTS),
    fc.constantFrom(...secrets, 'S3CRET'),
    fc.string({ maxLength: 4 }),
  );
  const text = fc.array(piece, { maxLength: 4 }).map((parts) => parts.join(''));
  const key = fc.oneof(fc.constantFrom(...KEYS), text);
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      text,
      fc.integer({ min: -2, max: 2000 }),
      fc.constantFrom(true, false, null, 1500, undefined),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(key, tie('value'), { maxKeys: 5 }),
      // What JSON prints is what toJSON returns, not the object's own fields.
      tie('value').map((shown) => ({ kept: 'own field', toJSON: () => shown })),
      // A class instance prints its own fields; a boxed string prints as the string.
      fc.dictionary(key, tie('value'), { maxKeys: 3 }).map((fields) => Object.assign(new Holder(), fields)),
      text.map((t) => new String(t)),
    ),
  }));
  return value;
};

const sample = fc
  .subarray(SECRETS, { maxLength: 3 })
  .chain((secrets) => fc.record({ secrets: fc.constant(secrets), record: recordOf(secrets) }));

/** Every string and key of JSON data, with the key each string value sits under. */
function* tokens(v: unknown, under?: string): Generator<{ text: string; under?: string | undefined }> {
  if (typeof v === 'string') yield { text: v, under };
  else if (Array.isArray(v)) for (const item of v) yield* tokens(item);
  else if (typeof v === 'object' && v !== null) {
    for (const [k, item] of Object.entries(v)) {
      yield { text: k };
      yield* tokens(item, k);
    }
  }
}

describe('secrets scan laws', () => {
  it('the walk agrees with the JSON-text scan, but for secrets the scan missed', () => {
    let missed = 0;
    fc.assert(
      fc.property(sample, ({ secrets, record }) => {
        const walked = walkSecrets(record, secrets);
        const scanned = scanSecretsText(record, secrets);
        if (walked === scanned) return;
        // Only ever more cautious, and only where a secret is really there to scrub.
        expect(scanned).toBe(false);
        expect(scrubSecrets(record, secrets)).not.toBe(record);
        missed++;
      }),
      { numRuns: 3000 },
    );
    // The generator does reach the shapes the text scan missed (a Bearer after \v or \f, `password[0]=`).
    expect(missed).toBeGreaterThan(0);
  });

  it('leaves no declared secret and no credential-shaped value in what JSON prints of the scrubbed record', () => {
    fc.assert(
      fc.property(sample, ({ secrets, record }) => {
        const text = JSON.stringify(scrubSecrets(record, secrets));
        if (text === undefined) return;
        for (const s of secrets.filter((x) => !inLiteral(x)))
          expect(text).not.toContain(JSON.stringify(s).slice(1, -1));
        for (const { text: t, under } of tokens(JSON.parse(text))) {
          expect(redactText(t, secrets)).toBe(t);
          if (under !== undefined && isSecretName(under)) expect(t).toBe(REDACTED);
        }
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the walk over clean records', () => {
  // Records shaped like a trial's history: clean keys and strings, many numbers, booleans and
  // nulls, nested; declared secrets that may sit in a string, a key or a literal as JSON prints it.
  // No credential shape anywhere, so the walk must answer exactly as the text scan does: the
  // walk's fast paths for strings, keys and literals each decide alone here (the laws above
  // draw so many shapes that a record rarely turns on one literal).
  const LITERAL_SECRETS = ['1500', 'true', '500', 'ul', 'req-', '-2', 'als', 'S3CRET'];
  const CLEAN_KEYS = ['seq', 't', 'type', 'call', 'attempt', 'status', 'request', 'tool', '1500', 'ok', 'retryable'];
  const CLEAN_TEXT = ['req-7', 'call-2', 'Service Unavailable', 'p-1', 'get_payment', '15', 'tr', 'ue', 'S3CRET', ''];
  const cleanRecord = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(...CLEAN_TEXT),
      fc.integer({ min: -3, max: 20_000 }),
      fc.constantFrom(1500, -1500, 15000, 0.5, true, false, null, undefined),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(fc.constantFrom(...CLEAN_KEYS), tie('value'), { maxKeys: 6 }),
    ),
  })).value;

  it('answers exactly as the JSON-text scan does', () => {
    fc.assert(
      fc.property(fc.subarray(LITERAL_SECRETS, { maxLength: 2 }), cleanRecord, (secrets, record) => {
        expect(walkSecrets(record, secrets)).toBe(scanSecretsText(record, secrets));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('what the walk reads', () => {
  // A toJSON is read as a getter would see it: an item of an array and a field's value, each
  // not plain (a toJSON, an Error, a class instance), must be read the same number of times, or
  // a stateful getter answers the two differently (judge10's array path asked `plain` twice).
  const counted = (make: (read: () => void) => object): { value: object; reads: () => number } => {
    let reads = 0;
    return { value: make(() => reads++), reads: () => reads };
  };
  const shapes: Record<string, (read: () => void) => object> = {
    'an object': (read) => ({
      get toJSON() {
        read();
        return () => ({ note: 'sk-abcdefghij123456' });
      },
    }),
    'a class instance': (read) =>
      new (class Box {
        readonly note = 'clean';
        get toJSON(): undefined {
          read();
          return undefined;
        }
      })(),
  };
  for (const [name, make] of Object.entries(shapes)) {
    it(`reads the toJSON of ${name} as often under an array as under a key`, () => {
      const inArray = counted(make);
      const underKey = counted(make);
      expect(walkSecrets([inArray.value], [])).toBe(walkSecrets({ item: underKey.value }, []));
      expect(inArray.reads()).toBeGreaterThan(0);
      expect(inArray.reads()).toBe(underKey.reads());
    });
  }
});

describe("the walk's caches stay bounded", () => {
  // 4,096 key entries, each with its last clean value (1,024 characters at most) and up to 32
  // short values (64 at most), and 4,096 clean strings of 1,024 at most: 4,097 entries and about
  // 17 million characters, whatever is walked. Two leaks this law catches: a full key cache whose
  // older entries stayed reachable through the chains of successors (one record of 20,000
  // distinct keys kept them all), and per-key values of any length up to 1,024 (4,000 keys with
  // 32 values of 200 characters each kept 26 million).
  const MAX_ENTRIES = 4_097;
  const MAX_CHARS = 17_000_000;
  const within = (): void => {
    const f = walkCacheFootprint();
    expect(f.entries).toBeLessThanOrEqual(MAX_ENTRIES);
    expect(f.cleanStrings).toBeLessThanOrEqual(4_096);
    expect(f.keptChars).toBeLessThanOrEqual(MAX_CHARS);
  };

  it('after one record of 20,000 distinct keys', () => {
    const record: Record<string, string> = {};
    for (let i = 0; i < 20_000; i++) record[`field-${i}`] = `value-${i}`;
    expect(walkSecrets(record, [])).toBe(false);
    within();
  });

  it('after 4,000 keys took 32 values of 200 characters each', () => {
    const pad = 'v'.repeat(190);
    for (let round = 0; round < 32; round++) {
      const record: Record<string, string> = {};
      for (let i = 0; i < 4_000; i++) record[`key-${i}`] = `${round}-${i}-${pad}`.slice(0, 200);
      expect(walkSecrets(record, [])).toBe(false);
    }
    within();
  });

  it('after random records, nested, with repeated and fresh keys and values', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.dictionary(
            fc.string({ maxLength: 8 }),
            fc.oneof(
              fc.string({ maxLength: 300 }),
              fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 80 })),
            ),
            { maxKeys: 40 },
          ),
          { maxLength: 30 },
        ),
        (records) => {
          for (const r of records) walkSecrets(r, []);
          within();
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('the clean-string cache', () => {
  // Every string the walk judges clean is kept, shape or no shape, and a key keeps its last clean
  // value: a string asked again (from either) must get the answer a module that never saw it
  // gives, in any order, past a full cache too.
  const text = fc
    .array(fc.oneof(fc.constantFrom(...FRAGMENTS, ...SECRETS), fc.string({ maxLength: 6 })), { maxLength: 4 })
    .map((parts) => parts.join(''));

  it('answers for a string seen before as for a string never seen', async () => {
    vi.resetModules();
    const fresh: typeof secretText = await import('./secretText.js');
    const strings = fc.sample(text, { numRuns: 3000, seed: 25 });
    const first = new Map<string, boolean>();
    for (const s of strings) if (!first.has(s)) first.set(s, fresh.walkSecrets({ s }, []));
    // Asked again in reverse, twice in a row under the same key (the key's last clean value), then
    // again once 5,000 other clean strings have overflowed the cache.
    for (const s of [...strings].reverse()) {
      expect(fresh.walkSecrets({ s }, [])).toBe(first.get(s));
      expect(fresh.walkSecrets([{ s }, { s }], [])).toBe(first.get(s));
    }
    for (let i = 0; i < 5000; i++) fresh.walkSecrets({ s: `filler-${i}` }, []);
    for (const s of strings) expect(fresh.walkSecrets([s], [])).toBe(first.get(s));
    // And the shapes are still found every time they are asked.
    expect([...first.values()].filter(Boolean).length).toBeGreaterThan(100);
    for (const shaped of ['sk-abcdefgh12345', 'Bearer abc123', 'password=hunter2', '{"token":"t-1"}'])
      for (let i = 0; i < 3; i++) expect(fresh.walkSecrets([shaped], [])).toBe(true);
  });

  it('answers for values a key keeps (few, taking turns) as for values never seen, and for shapes among them every time', async () => {
    vi.resetModules();
    const fresh: typeof secretText = await import('./secretText.js');
    // A few values under one key, shapes among them, asked in any order: the key keeps the clean ones.
    const pools = fc.sample(fc.uniqueArray(text, { minLength: 2, maxLength: 40 }), { numRuns: 200, seed: 25 });
    let shaped = 0;
    for (const [n, pool] of pools.entries()) {
      const key = `k${n}`;
      // Each first asked under a key of its own, which has kept no value yet.
      const first = new Map(pool.map((v, i) => [v, fresh.walkSecrets({ [`first-${n}-${i}`]: v }, [])]));
      shaped += [...first.values()].filter(Boolean).length;
      for (let round = 0; round < 3; round++)
        for (const v of round === 1 ? [...pool].reverse() : pool)
          expect(fresh.walkSecrets({ [key]: v }, [])).toBe(first.get(v));
    }
    expect(shaped).toBeGreaterThan(100);
  });

  it('answers for keys in an order seen before as for keys never seen (the keys that followed before, past their slots too)', async () => {
    vi.resetModules();
    const fresh: typeof secretText = await import('./secretText.js');
    // Objects of a few keys, credential names and shapes among them, in every order.
    const objects = fc.sample(
      fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), text), fc.oneof(text, fc.integer()), { maxKeys: 5 }),
      { numRuns: 3000, seed: 25 },
    );
    const first = objects.map((o) => fresh.walkSecrets(o, []));
    expect(first.filter(Boolean).length).toBeGreaterThan(100);
    [...objects].reverse().forEach((o, i) => expect(fresh.walkSecrets(o, [])).toBe(first[objects.length - 1 - i]));
    objects.forEach((o, i) => expect(fresh.walkSecrets([o, o], [])).toBe(first[i]));
    // The same keys in a changed order, after the order before.
    objects.forEach((o, i) =>
      expect(fresh.walkSecrets(Object.fromEntries(Object.entries(o).reverse()), [])).toBe(first[i]),
    );
  });
});
