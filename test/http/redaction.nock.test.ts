import axios from 'axios';
import { describe, expect, it } from 'vitest';
import { always, SHOP, shopTrial } from './support.js';

const { runWithNock } = await import('../../src/faults/http/nock.js');

/** R13: an unhandled request's error names the request without the credentials it carried. */
describe('nock adapter: the unhandled-request error carries no secret', () => {
  it('keeps nock’s code, method and URL, and redacts Authorization, API-key headers and secret shapes', async () => {
    const { clock, faults } = shopTrial(always({ kind: 'unavailable', status: 503 }));
    const run = await runWithNock(faults, clock, () =>
      axios
        .post(
          `${SHOP}/not-a-route`,
          { note: 'use sk-proj-PLANTEDkey1234567890' },
          {
            headers: {
              Authorization: 'Bearer PLANTED.jwt.token',
              'x-api-key': 'PLANTED-raw-key',
              'x-trace': 'Bearer PLANTED-in-other-header',
              'x-request-id': 'req-7',
            },
          },
        )
        .then(
          () => undefined,
          (e: Error & { code?: string }) => ({ code: e.code, message: e.message }),
        ),
    );
    expect(run.kind).toBe('settled');
    const seen = run.kind === 'settled' ? run.value : undefined;
    expect(seen?.code).toBe('ERR_NOCK_NO_MATCH');
    expect(seen?.message).toContain(
      `Nock: No match for request {\n  "method": "POST",\n  "url": "${SHOP}/not-a-route"`,
    );
    expect(seen?.message).toContain('"authorization": "[REDACTED]"');
    expect(seen?.message).toContain('"x-api-key": "[REDACTED]"');
    expect(seen?.message).toContain('"x-trace": "Bearer [REDACTED]"');
    expect(seen?.message).toContain('"x-request-id": "req-7"');
    expect(seen?.message).toContain('"body": "{\\"note\\":\\"use [REDACTED]\\"}"');
    expect(seen?.message).not.toContain('PLANTED');
  });
});
