import { describe, expect, it } from 'vitest';
import { redactHeaders, redactText, scrubSecrets } from './secretText.js';

describe('redactText', () => {
  it('replaces declared secrets and common shapes', () => {
    expect(redactText('key ACME-7 and sk-ant-abcdefgh12345 with Bearer abc.def', ['ACME-7'])).toBe('key [REDACTED] and [REDACTED] with Bearer [REDACTED]');
    expect(redactText('nothing to hide here')).toBe('nothing to hide here');
  });
});

describe('redactHeaders', () => {
  it('replaces credential headers whole and secret shapes in any other, declared or not', () => {
    expect(
      redactHeaders({ authorization: 'Bearer t0k3n', Cookie: 'sid=1', 'x-api-key': 'raw', 'x-trace': 'Bearer abc', accept: 'application/json', list: ['sk-abcdefghijkl', 'ok'] }),
    ).toEqual({ authorization: '[REDACTED]', Cookie: '[REDACTED]', 'x-api-key': '[REDACTED]', 'x-trace': 'Bearer [REDACTED]', accept: 'application/json', list: ['[REDACTED]', 'ok'] });
  });
});

describe('scrubSecrets', () => {
  it('replaces secrets in strings and keys at any depth, keeping values of keys named token or secret', () => {
    const value = { events: [{ type: 'x', input: { ref: 'S3CRET' }, n: 1 }], state: { S3CRET: true }, evidence: { secret: 0, token: 'plain' } };
    expect(scrubSecrets(value, ['S3CRET'])).toEqual({ events: [{ type: 'x', input: { ref: '[REDACTED]' }, n: 1 }], state: { '[REDACTED]': true }, evidence: { secret: 0, token: 'plain' } });
    expect(value.events[0]!.input.ref).toBe('S3CRET');
  });

  it('returns the very same objects where nothing changed', () => {
    const clean = { a: [{ b: 'c' }], d: { e: 1 } };
    const mixed = { clean: clean.a, dirty: { s: 'S3CRET' } };
    expect(scrubSecrets(clean, ['S3CRET'])).toBe(clean);
    const out = scrubSecrets(mixed, ['S3CRET']);
    expect(out.clean).toBe(clean.a);
    expect(out.dirty).toEqual({ s: '[REDACTED]' });
  });

  it('turns errors into plain objects, redacted, and survives cycles', () => {
    const e = new Error('failed for S3CRET');
    expect(scrubSecrets({ e }, ['S3CRET']).e).toMatchObject({ name: 'Error', message: 'failed for [REDACTED]' });
    const a: Record<string, unknown> = { s: 'x' };
    a['self'] = a;
    expect(scrubSecrets(a, ['S3CRET'])).toBe(a);
  });
});
