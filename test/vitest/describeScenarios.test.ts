// The built-in library as vitest tests through faultline/vitest, as a user's test file would run it.
import { expect, it } from 'vitest';
import { describeScenarios } from '../../src/public/vitest.js';

await describeScenarios(['read-timeout-retry', 'order-partial-write-idempotent', 'scenarios/email-rate-limit-*.yaml'], { retryConfigs: ['rulebook', 'full-jitter-budget'], k: 3 });

it('refuses an empty list rather than collecting no test', async () => {
  await expect(describeScenarios([])).rejects.toThrow('describeScenarios: name at least one scenario');
  await expect(describeScenarios(['nowhere/*.yaml'])).rejects.toThrow('the pattern "nowhere/*.yaml" matches no scenario file');
});
