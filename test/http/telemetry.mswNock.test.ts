import { describe, expect, it } from 'vitest';
import { defineHttpAgent, defineScenario, rulebookDefault, runTrial } from '../../src/public/index.js';

/**
 * An SDK's own telemetry sent inside a trial (the OpenAI Agents SDK's trace export, on its own
 * timer) is answered there with a 403 and never sent, under either adapter, with or without a
 * model served at its host; the trial is judged on the agent's work alone. (nock's run first:
 * see NOTES on msw and nock in one process.)
 */

const agent = (seen: { status?: number; code?: string }) =>
  defineHttpAgent(async ({ services }) => {
    const t = await fetch('https://api.openai.com/v1/traces/ingest', {
      method: 'POST',
      headers: {
        authorization: 'Bearer sk-test-abcdefgh12345678',
        'content-type': 'application/json',
        'openai-beta': 'traces=v1',
      },
      body: '{"data":[]}',
    });
    seen.status = t.status;
    seen.code = ((await t.json()) as { error: { code: string } }).error.code;
    const res = await fetch(`${services['orders']!.baseUrl}/tools/create_order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 }),
    });
    return {
      outcome: res.ok ? 'completed' : 'failed',
      claims: [{ subject: 'orders:ref-1', status: res.ok ? 'succeeded' : 'failed' }],
    };
  });

describe("an SDK's telemetry inside a trial", () => {
  for (const adapter of ['nock', 'msw'] as const) {
    for (const model of [false, true]) {
      it(`${adapter}${model ? ', a model served at api.openai.com' : ''}: answered 403 here, and the trial passes`, async () => {
        const seen: { status?: number; code?: string } = {};
        const scenario = defineScenario({
          name: `telemetry-${adapter}`,
          services: ['orders'],
          http: { adapter },
          ...(model && {
            model: {
              api: 'openai' as const,
              plan: {
                steps: [
                  {
                    tool: 'create_order',
                    input: { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 },
                  },
                ],
              },
            },
          }),
          agent: { kind: 'http', task: 'Create order ref-1', run: agent(seen) },
          goal: { effects: { 'order.created': 1 } },
        });
        const trial = await runTrial({ scenario, config: rulebookDefault, runSeed: 1, trialIndex: 0 });
        expect(seen).toEqual({ status: 403, code: 'FAULTLINE_TELEMETRY_REFUSED' });
        expect(trial.status).toBe('passed');
        expect(trial.history.some((e) => e.type === 'unserved_request')).toBe(false);
      });
    }
  }
});
