import { describe, expect, it } from 'vitest';
import { redact } from './redact.js';

describe('redact', () => {
  it('replaces configured secrets and common secret shapes at any depth', () => {
    const input = {
      note: 'key sk-proj-abcDEF123456789 and Bearer eyJhbGciOi.payload.sig',
      nested: [{ url: 'https://x/login?user=bob&password=hunter2&x=1', text: 'my tenant is ACME-SECRET-7' }],
      headers: { Authorization: 'Basic Zm9vOmJhcg==', 'x-request-id': 'r1' },
      password: 'short',
      count: 3,
    };
    expect(redact(input, ['ACME-SECRET-7'])).toEqual({
      note: 'key [REDACTED] and Bearer [REDACTED]',
      nested: [{ url: 'https://x/login?user=bob&password=[REDACTED]&x=1', text: 'my tenant is [REDACTED]' }],
      headers: { Authorization: '[REDACTED]', 'x-request-id': 'r1' },
      password: '[REDACTED]',
      count: 3,
    });
    expect(input.password).toBe('short');
  });

  it('turns errors into plain objects with their stack, redacted', () => {
    const e = Object.assign(new Error('token=abc123 rejected'), { code: 'E_AUTH' });
    const out = redact({ e }).e as unknown as Record<string, unknown>;
    expect(out['message']).toBe('token=[REDACTED] rejected');
    expect(out['code']).toBe('E_AUTH');
    expect(String(out['stack'])).toContain('token=[REDACTED]');
  });

  it('survives cycles', () => {
    const a: Record<string, unknown> = { s: 'sk-abcdefghijklmnop' };
    a['self'] = a;
    const out = redact(a) as Record<string, unknown>;
    expect(out['s']).toBe('[REDACTED]');
    expect(out['self']).toBe(out);
  });
});
