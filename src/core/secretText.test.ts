import { describe, expect, it, vi } from 'vitest';
import { REDACTED, redactHeaders, redactText, scrubSecrets, walkSecrets } from './secretText.js';

describe('redactText', () => {
  it('replaces declared secrets and common shapes', () => {
    expect(redactText('key ACME-7 and sk-ant-abcdefgh12345 with Bearer abc.def', ['ACME-7'])).toBe(
      'key [REDACTED] and [REDACTED] with Bearer [REDACTED]',
    );
    expect(redactText('nothing to hide here')).toBe('nothing to hide here');
  });

  it('replaces credential shapes: keys, bearer tokens, Authorization values, query and form pairs, JSON fields', () => {
    const cases: [string, string][] = [
      ['pk_live_abcdefgh1234, rk_live_12345678abc, sk_test_abcdefgh123', '[REDACTED], [REDACTED], [REDACTED]'],
      ['sk-proj-abcDEF123456789', '[REDACTED]'],
      ['curl -H "Authorization: Basic dXNlcjpwYXNz" https://x', 'curl -H "Authorization: [REDACTED]" https://x'],
      ['Authorization: eyJhbGciOiJIUzI1NiJ9.payload.sig', 'Authorization: [REDACTED]'],
      ['https://x/login?user=bob&password=hunter2&x=1', 'https://x/login?user=bob&password=[REDACTED]&x=1'],
      [
        'grant_type=refresh&refresh_token=r-1&client_secret=cs',
        'grant_type=refresh&refresh_token=[REDACTED]&client_secret=[REDACTED]',
      ],
      [
        '{"authorization":"Basic Zm9v","apiKey":"k1","x":"token"}',
        '{"authorization":"[REDACTED]","apiKey":"[REDACTED]","x":"token"}',
      ],
      [
        JSON.stringify({ m: 'dump {"password":"hunter2","user":"bob"}' }),
        JSON.stringify({ m: 'dump {"password":"[REDACTED]","user":"bob"}' }),
      ],
    ];
    for (const [text, redacted] of cases) expect(redactText(text), text).toBe(redacted);
  });

  it('leaves words, paths and flags alone: only credential shapes are secrets', () => {
    for (const text of [
      'Chose the basic plan; refresh-token: rotated ok',
      'error: --out /etc/passwd: expected a folder, but /etc/passwd is a file',
      'error: --out out/token: expected a folder; --out x/api_key, x/secret',
      'keep the password secret; the token is a word; secret plan',
      'Authorization: denied because of policy',
      'the bearer of bad news; basic authentication',
      '--gate pass^5>=1 can never hold; --seed=3; idempotencyKey=abc',
      '{"item":"token","note":"password: none","tokens":3}',
    ]) {
      expect(redactText(text), text).toBe(text);
    }
  });
});

describe('redactHeaders', () => {
  it('replaces credential headers whole and secret shapes in any other, declared or not', () => {
    expect(
      redactHeaders({
        authorization: 'Bearer t0k3n',
        Cookie: 'sid=1',
        'x-api-key': 'raw',
        'x-trace': 'Bearer abc',
        accept: 'application/json',
        list: ['sk-abcdefghijkl', 'ok'],
      }),
    ).toEqual({
      authorization: '[REDACTED]',
      Cookie: '[REDACTED]',
      'x-api-key': '[REDACTED]',
      'x-trace': 'Bearer [REDACTED]',
      accept: 'application/json',
      list: ['[REDACTED]', 'ok'],
    });
  });
});

describe('scrubSecrets', () => {
  it('replaces secrets in strings and keys at any depth, and the strings of fields named like credentials', () => {
    const value = {
      events: [{ type: 'x', input: { ref: 'S3CRET' }, n: 1 }],
      state: { S3CRET: true },
      evidence: { secret: 0, token: 'plain', idempotencyKey: 'k-1', tokens: { input: 3 } },
    };
    expect(scrubSecrets(value, ['S3CRET'])).toEqual({
      events: [{ type: 'x', input: { ref: '[REDACTED]' }, n: 1 }],
      state: { '[REDACTED]': true },
      evidence: { secret: 0, token: '[REDACTED]', idempotencyKey: 'k-1', tokens: { input: 3 } },
    });
    expect(value.events[0]!.input.ref).toBe('S3CRET');
  });

  it('finds every credential name on its own, with no other secret in the value to set the walk off', () => {
    for (const name of [
      'password',
      'db.passwd',
      'pwd',
      'passphrase',
      'client_secret',
      'secret_key',
      'secret-key',
      'secretKey',
      'clientSecret',
      'accessToken',
      'api_key',
      'x-api-key',
      'apikey',
      'openaiApiKey',
      'access_key',
      'accessKey',
      'private_key',
      'privateKey',
      'authorization',
      'proxy-authorization',
      'cookie',
      'set-cookie',
      'credentials',
    ]) {
      expect(scrubSecrets({ n: 1, [name]: 'hunter2' }), name).toEqual({ n: 1, [name]: '[REDACTED]' });
      expect(scrubSecrets({ query: `a=1&${name}=hunter2` }).query, name).toBe('a=1&' + name + '=[REDACTED]');
    }
  });

  it('returns the very same objects where nothing changed', () => {
    const clean = { a: [{ b: 'c' }], d: { e: 1 } };
    const mixed = { clean: clean.a, dirty: { s: 'S3CRET' } };
    expect(scrubSecrets(clean, ['S3CRET'])).toBe(clean);
    const out = scrubSecrets(mixed, ['S3CRET']);
    expect(out.clean).toBe(clean.a);
    expect(out.dirty).toEqual({ s: '[REDACTED]' });
  });

  it('scrubs what a class instance or a boxed string prints: its own fields, its value', () => {
    class Credentials {
      readonly clientReference = 'ref-1';
      readonly token = 'hunter2';
      note = 'sent with Bearer abc123xyz and S3CRET';
    }
    const text = JSON.stringify(scrubSecrets({ input: new Credentials(), boxed: new String('S3CRET') }, ['S3CRET']));
    for (const secret of ['hunter2', 'abc123xyz', 'S3CRET']) expect(text).not.toContain(secret);
    expect(JSON.parse(text)).toEqual({
      input: { clientReference: 'ref-1', token: REDACTED, note: `sent with Bearer ${REDACTED} and ${REDACTED}` },
      boxed: REDACTED,
    });
    class Reference {
      readonly clientReference = 'ref-1';
    }
    const clean = { input: new Reference(), boxed: new String('plain') };
    expect(scrubSecrets(clean, ['S3CRET'])).toBe(clean);
  });

  it('turns errors into plain objects, redacted, and survives cycles', () => {
    const e = new Error('failed for S3CRET');
    expect(scrubSecrets({ e }, ['S3CRET']).e).toMatchObject({ name: 'Error', message: 'failed for [REDACTED]' });
    const a: Record<string, unknown> = { s: 'x' };
    a['self'] = a;
    expect(scrubSecrets(a, ['S3CRET'])).toBe(a);
  });
});

describe('scrubSecrets: shapes the JSON-text scan let through', () => {
  it('scrubs what an object with a toJSON prints, not only its own fields', () => {
    const token = { kind: 'held', toJSON: () => ({ header: 'Bearer abc123xyz', password: 'hunter2' }) };
    const text = JSON.stringify(scrubSecrets({ token }, []));
    expect(text).not.toContain('abc123xyz');
    expect(text).not.toContain('hunter2');
    const declared = { at: new Date(0), note: { toJSON: () => 'sent S3CRET' } };
    expect(JSON.stringify(scrubSecrets(declared, ['S3CRET']))).not.toContain('S3CRET');
  });

  it('keeps an object with a toJSON as it is when what it prints holds nothing to hide', () => {
    const at = new Date(0);
    const value = { at, note: { toJSON: () => 'nothing here' } };
    expect(scrubSecrets(value, ['S3CRET'])).toBe(value);
    expect(scrubSecrets({ at, s: 'S3CRET' }, ['S3CRET']).at).toBe(at);
  });

  it('scrubs a secret-named parameter with a bracket suffix in a query or form string', () => {
    expect(scrubSecrets({ url: 'https://x/login?user=bob&password[0]=hunter2' }).url).toBe(
      'https://x/login?user=bob&password[0]=[REDACTED]',
    );
    expect(scrubSecrets({ body: 'api_key[]=k-123&n=1' }).body).toBe('api_key[]=[REDACTED]&n=1');
  });

  it('scrubs a Bearer token after a vertical tab, form feed or other unusual whitespace', () => {
    for (const space of ['\v', '\f', '\u00a0', '\u2028', '\v\t']) {
      expect(JSON.stringify(scrubSecrets({ h: `Bearer${space}abc123xyz` })), JSON.stringify(space)).not.toContain(
        'abc123xyz',
      );
    }
  });

  it('calls a toJSON with its key, as JSON does, and once to scrub (once more to decide), not once per look', () => {
    const keys: string[] = [];
    const header = { toJSON: (key: string) => (keys.push(key), 'Bearer abc123xyz') };
    expect(JSON.stringify(scrubSecrets({ header, list: [header] }))).not.toContain('abc123xyz');
    // The walk that decides stops at the first secret it finds; the scrub then prints each once.
    expect(keys).toEqual(['header', 'header', '0']);
    keys.length = 0;
    const password = { toJSON: (key: string) => (keys.push(key), 'hunter2') };
    expect(scrubSecrets({ password })).toEqual({ password: REDACTED });
    expect(keys).toEqual(['password', 'password']);
  });
});

describe('walkSecrets on deep records', () => {
  const nested = (depth: number, leaf: unknown): unknown => {
    let v: unknown = leaf;
    for (let i = 0; i < depth; i++) v = { a: v };
    return v;
  };

  it('prints a subtree past its depth limit once, not again every 64 levels', () => {
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      expect(walkSecrets(nested(2_000, { s: 'plain' }), [])).toBe(false);
      expect(stringify.mock.calls.length).toBeLessThanOrEqual(1);
      stringify.mockClear();
      expect(walkSecrets(nested(2_000, { password: 'hunter2' }), [])).toBe(true);
      expect(walkSecrets(nested(2_000, { s: 'S3CRET' }), ['S3CRET'])).toBe(true);
      expect(stringify.mock.calls.length).toBeLessThanOrEqual(4);
    } finally {
      stringify.mockRestore();
    }
  });
});

describe('walkSecrets reads own keys only', () => {
  it('ignores an enumerable key added to Object.prototype, as JSON does, and still finds own secrets', () => {
    const proto = Object.prototype as Record<string, unknown>;
    Object.defineProperty(proto, 'leakedToken', {
      value: 'sk-abcdefgh12345',
      enumerable: true,
      configurable: true,
      writable: true,
    });
    try {
      const record = { type: 'tool_call', input: { note: 'plain', nested: [{ a: 'b' }] } };
      expect(JSON.stringify(record)).not.toContain('sk-');
      expect(walkSecrets(record, [])).toBe(false);
      expect(scrubSecrets(record)).toBe(record);
      expect(walkSecrets({ ...record, token: 'x' }, [])).toBe(true);
      expect(walkSecrets(Object.assign(Object.create(null) as object, { a: { password: 'x' } }), [])).toBe(true);
    } finally {
      delete proto.leakedToken;
    }
  });
});
