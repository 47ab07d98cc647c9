import { describe, expect, it } from 'vitest';
import {
  defineHttpAgent,
  defineScenario,
  rulebookDefault,
  runTrial,
  type HttpAgentContext,
} from '../../src/public/index.js';

const ORDER = { clientReference: 'ref-7', item: 'book', quantity: 1, amountCents: 1500 };

/** The agent's own tool: fetch, one key for the operation, and a wait before its one resend. */
const agent = (waitMs: (retryAfter: string | null) => number) =>
  defineHttpAgent(async ({ services }: HttpAgentContext) => {
    const send = () =>
      fetch(`${services['orders']!.baseUrl}/tools/create_order`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'order-ref-7' },
        body: JSON.stringify(ORDER),
      });
    let res = await send();
    if (res.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, waitMs(res.headers.get('retry-after'))));
      res = await send();
    }
    return {
      outcome: res.ok ? 'completed' : 'failed',
      claims: [{ subject: 'orders:ref-7', status: res.ok ? 'succeeded' : 'failed' }],
    };
  });

const scenarioWith = (run: ReturnType<typeof agent>) =>
  defineScenario({
    name: 'own-agent-retry-after',
    services: ['orders'],
    faults: [{ match: { tool: 'create_order', attempt: 1 }, fault: { kind: 'rate_limit', retryAfter: 7 } }],
    agent: { kind: 'http', task: 'Create order ref-7', run },
    goal: { effects: { 'order.created': 1 } },
  });

describe('an http agent run by the runner is judged from its traffic', () => {
  it('ignoring Retry-After fails retry-discipline, naming the request and the header', async () => {
    const trial = await runTrial({
      scenario: scenarioWith(agent(() => 400)),
      config: rulebookDefault,
      runSeed: 1,
      trialIndex: 0,
    });
    expect(trial.status === 'failed' && trial.failed).toEqual(['retry-discipline']);
    const verdict = trial.checks.find((c) => c.name === 'retry-discipline')!.verdict;
    expect(verdict.valid === false && verdict.message).toBe(
      'create_order create_order#1 attempt 2 (http-2, POST https://orders.faultline.test/tools/create_order) at t=400ms was sent 400ms after the 429 answer to http-1 at t=0ms said Retry-After: 7 (7000ms, until t=7000ms) (R9)',
    );
  });

  it('honouring it passes every checker', async () => {
    const trial = await runTrial({
      scenario: scenarioWith(agent((h) => Number(h) * 1000)),
      config: rulebookDefault,
      runSeed: 1,
      trialIndex: 0,
    });
    expect(trial.checks.filter((c) => c.verdict.valid !== true)).toEqual([]);
    expect(trial.status).toBe('passed');
  });
});
