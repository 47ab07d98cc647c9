import { describe, expect, it } from 'vitest';
import { isFaultlineError } from '../core/index.js';
import { defineScenario, type ScenarioInput } from './scenario.js';

const c = { kind: 'constant', ms: 5 } as const;
const scripted: ScenarioInput['agent'] = {
  kind: 'scripted',
  task: 'Create order ref-1',
  plan: {
    steps: [{ tool: 'create_order', input: { clientReference: 'ref-1', item: 'pen', quantity: 1, amountCents: 100 } }],
  },
};
const http: ScenarioInput['agent'] = {
  kind: 'http',
  task: 'Create order ref-1',
  run: () => Promise.resolve({ outcome: 'completed' }),
};

const refusal = (network: ScenarioInput['network'], agent: ScenarioInput['agent'] = scripted): string[] => {
  try {
    defineScenario({ name: 'net', services: ['orders', 'payments'], network, agent });
    return [];
  } catch (error) {
    if (!isFaultlineError(error)) throw error;
    return (error.details as { issues: string[] }).issues;
  }
};

describe('a scenario network names only what the scenario has', () => {
  it('accepts services, tools and (for an http agent) routes that exist', () => {
    expect(
      refusal({
        latency: c,
        services: { payments: { latency: c } },
        tools: { charge_payment: { latency: { request: c } } },
      }),
    ).toEqual([]);
    expect(
      refusal(
        {
          services: {
            orders: {
              routes: { 'POST /tools/create_order': { latency: c }, 'POST /tools/create_order/status': { latency: c } },
            },
          },
        },
        http,
      ),
    ).toEqual([]);
  });

  it('refuses an unknown service or tool, with the path and what is there', () => {
    expect(refusal({ services: { billing: { latency: c } }, tools: { charge: { latency: c } } })).toEqual([
      'network.tools.charge: "charge": no such tool in this scenario\'s services (known: create_order, ' +
        'get_order, find_order_by_reference, cancel_order, charge_payment, refund_payment, get_payment)',
      'network.services.billing: "billing": no such service in this scenario (services: orders, payments)',
    ]);
  });

  it('refuses routes unless the services are served over HTTP, and a route the service does not have', () => {
    expect(refusal({ services: { orders: { routes: { 'POST /tools/create_order': { latency: c } } } } })).toEqual([
      'network.services.orders.routes: per-route latency applies to services served over HTTP to an ' +
        '"http" or "command" agent; agent.kind is "scripted" (set latency per tool instead)',
    ]);
    const [problem] = refusal({ services: { orders: { routes: { 'POST /orders': { latency: c } } } } }, http);
    expect(problem).toMatch(
      /^network\.services\.orders\.routes\["POST \/orders"\]: no such route of "orders" \(routes: POST \/tools\/create_order, /,
    );
  });
});
