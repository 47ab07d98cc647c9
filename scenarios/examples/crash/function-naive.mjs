// A naive function agent: it keeps nothing outside its memory, so after crash.agent its restart (a
// fresh instance of this module, with the same task) starts the task over and places again the
// order it had placed before it died (R22, R25: fails `duplicates`).
const ORDERS = [
  { clientReference: 'po-1', item: 'printer', quantity: 1, amountCents: 12_900 },
  { clientReference: 'po-2', item: 'toner', quantity: 2, amountCents: 4_800 },
];

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
        const r = await tools.create_order(order);
        if (r.kind !== 'ok') return { outcome: 'failed', message: `create_order: ${r.kind}` };
      }
      return { outcome: 'completed', message: `placed ${ORDERS.length} orders` };
    },
  },
  goal: { effects: { 'order.created': 2 }, outcome: ['completed'] },
};
