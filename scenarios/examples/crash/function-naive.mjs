// A function agent that keeps what it has done in module-level memory only. After crash.agent, its
// restart runs from a fresh instance of this module (the set below is empty again), so it places
// again the order it had placed before it died (R22, R25: fails `duplicates`).
const ORDERS = [
  { clientReference: 'po-1', item: 'printer', quantity: 1, amountCents: 12_900 },
  { clientReference: 'po-2', item: 'toner', quantity: 2, amountCents: 4_800 },
];
const placed = new Set();

export default {
  name: 'crash-function-naive-after-create',
  description:
    'A function agent dies after the first order committed, before it heard: it starts over and places it again.',
  rules: ['R22', 'R25'],
  services: ['orders'],
  crash: { agent: { afterEffectOf: 'create_order' } },
  agent: {
    kind: 'function',
    task: 'Place the two purchase orders po-1 and po-2.',
    fn: async ({ tools }) => {
      for (const order of ORDERS) {
        if (placed.has(order.clientReference)) continue;
        const r = await tools.create_order(order);
        if (r.kind !== 'ok') return { outcome: 'failed', message: `create_order: ${r.kind}` };
        placed.add(order.clientReference);
      }
      return { outcome: 'completed', message: `placed ${ORDERS.length} orders` };
    },
  },
  goal: { effects: { 'order.created': 2 }, outcome: ['completed'] },
};
