// A function agent that keeps an operation record (R22) in the trial's checkpoint store (ctx.kv,
// which survives crash.agent): each order is marked `pending` before it is sent and `done` once its
// answer came. A restart (ctx.restart) reconciles a pending order through a status query
// (find_order_by_reference, R21) before it sends anything again, so it passes at every crash point.
const ORDERS = [
  { clientReference: 'po-1', item: 'printer', quantity: 1, amountCents: 12_900 },
  { clientReference: 'po-2', item: 'toner', quantity: 2, amountCents: 4_800 },
];

async function placeOnce({ tools, kv }, order) {
  const key = `order:${order.clientReference}`;
  const record = JSON.parse((await kv.get(key)) ?? 'null');
  if (record?.status === 'done') return true;
  if (record?.status === 'pending') {
    const found = await tools.find_order_by_reference({ clientReference: order.clientReference });
    if (found.kind !== 'ok') return false;
    if (found.value.length > 0) {
      await kv.set(key, JSON.stringify({ status: 'done', orderId: found.value[0].orderId }));
      return true;
    }
  }
  await kv.set(key, JSON.stringify({ status: 'pending' }));
  const created = await tools.create_order(order);
  if (created.kind !== 'ok') return false;
  await kv.set(key, JSON.stringify({ status: 'done', orderId: created.value.orderId }));
  return true;
}

export default {
  name: 'crash-function-recorded-after-create',
  description:
    'A function agent dies after the first order committed; its operation record in ctx.kv and a status query keep it from placing it twice.',
  rules: ['R22', 'R25'],
  services: ['orders'],
  crash: { agent: { afterEffectOf: 'create_order' } },
  agent: {
    kind: 'function',
    task: 'Place the two purchase orders po-1 and po-2.',
    fn: async (ctx) => {
      for (const order of ORDERS)
        if (!(await placeOnce(ctx, order)))
          return { outcome: 'failed', message: `could not place ${order.clientReference}` };
      const after = ctx.restart ? ` after ${ctx.restartCount} restart(s)` : '';
      return { outcome: 'completed', message: `placed ${ORDERS.length} orders${after}` };
    },
  },
  goal: { effects: { 'order.created': 2 }, outcome: ['completed'] },
};
