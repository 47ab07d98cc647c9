// The built-in library as vitest tests through faultline/vitest, as a user's test file would run it.
import { describeScenarios } from '../../src/public/vitest.js';

await describeScenarios(['read-timeout-retry', 'order-partial-write-idempotent', 'scenarios/email-rate-limit-*.yaml'], { retryConfigs: ['rulebook', 'full-jitter-budget'], k: 3 });
