/**
 * Function agents with three chains of reads and writes started together, through the built-in orders and payments
 * services, plain and under faults, duplicates and a constant network latency: where concurrent calls meet at one
 * virtual instant (interleaving.golden.test.ts pins each whole trial).
 */
import type { AgentFn } from '../../src/agent/agentFunction.js';
import type { ScenarioInput } from '../../src/scenario/scenario.js';

type Call = (input: Record<string, unknown>) => Promise<{ kind: string; value?: unknown }>;

/** Three chains started together: writes and reads of two services, each next call chosen by what the last answered. */
const mixed: AgentFn = async ({ tools }) => {
  const t = tools as unknown as Record<string, Call>;
  const seen: string[] = [];
  const idOf = (r: { kind: string; value?: unknown }): string =>
    (r.value as { orderId?: string } | undefined)?.orderId ?? 'ord-none';
  const a = (async () => {
    const first = await t['create_order']!({ clientReference: 'ref-1', item: 'pen', quantity: 1, amountCents: 100 });
    seen.push(`a:${first.kind}`);
    const paid = await t['charge_payment']!({
      paymentReference: 'pay-1',
      orderId: idOf(first),
      amountCents: 100,
      currency: 'EUR',
    });
    seen.push(`a:${paid.kind}`);
  })();
  const b = (async () => {
    const read = await t['get_order']!({ orderId: 'ord-1' });
    seen.push(`b:${read.kind}`);
    const second = await t['create_order']!({
      clientReference: read.kind === 'ok' ? 'ref-2' : 'ref-3',
      item: 'pen',
      quantity: 2,
      amountCents: 200,
    });
    seen.push(`b:${second.kind}`);
  })();
  const c = (async () => {
    await Promise.resolve(); // one turn later than the others
    const read = await t['get_order']!({ orderId: 'ord-2' });
    seen.push(`c:${read.kind}`);
    const third = await t['create_order']!({
      clientReference: read.kind === 'ok' ? 'ref-4' : 'ref-5',
      item: 'cup',
      quantity: 1,
      amountCents: 300,
    });
    seen.push(`c:${third.kind}`);
  })();
  await Promise.all([a, b, c]);
  return { outcome: 'completed', message: seen.join(' ') };
};

const base = {
  services: ['orders', 'payments'],
  agent: { kind: 'function', task: 'three chains at once', fn: mixed },
  goal: { outcome: ['completed'] },
} satisfies Partial<ScenarioInput>;

export const MIXED_CASES: Record<string, ScenarioInput> = {
  'mixed, no faults': { name: 'mixed', ...base },
  'mixed, refusals and lost answers': {
    name: 'mixed-faults',
    ...base,
    faults: [
      { match: { tool: 'create_order' }, fault: { kind: 'partial_write', lostAs: 'timeout' }, times: 1 },
      { match: { tool: 'get_order' }, fault: { kind: 'unavailable', status: 503 }, times: 2 },
      { match: { tool: 'charge_payment' }, fault: { kind: 'rate_limit', retryAfter: 1 }, times: 1 },
    ],
  },
  'mixed, duplicates delivered at once': {
    name: 'mixed-duplicates',
    ...base,
    faults: [{ match: { tool: 'create_order' }, fault: { kind: 'duplicate', copies: 2, concurrent: true }, times: 2 }],
  },
  'mixed, constant network latency': {
    name: 'mixed-network',
    ...base,
    network: { latency: { kind: 'constant', ms: 10 } },
  },
};
