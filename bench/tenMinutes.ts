/** A trial whose backoffs add up to ten virtual minutes: ten 60 s waits between eleven attempts (shared by the benches). */
import { defineScenario } from '../src/scenario/scenario.js';
import { RetryConfigSchema } from '../src/runtime/config.js';

export const tenMinutes = defineScenario({
  name: 'ten-virtual-minutes',
  faults: [{ match: { tool: 'get_payment' }, fault: { kind: 'unavailable', status: 503 }, times: 10 }],
  agent: {
    kind: 'scripted',
    task: 'Look up a payment through a flapping service',
    plan: {
      steps: [
        { name: 'pay', tool: 'charge_payment', input: { paymentReference: 'p-1', amountCents: 100, currency: 'EUR' } },
        { tool: 'get_payment', input: { paymentId: '$pay.paymentId' } },
      ],
    },
  },
  budget: { deadlineMs: 3_600_000, maxAttemptsPerCall: 11 },
});
export const patient = RetryConfigSchema.parse({
  name: 'patient',
  maxAttempts: 11,
  deadlineMs: null,
  retryBudget: null,
  backoff: { kind: 'fixed', delayMs: 60_000 },
});
