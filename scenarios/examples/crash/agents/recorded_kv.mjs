// recorded.mjs's operation record (R22) kept in faultline's checkpoint store instead of a file: the
// served world's key-value API at FAULTLINE_KV_URL (GET, PUT and DELETE <url>/<key>, values as text),
// which any language can reach and which survives the agent's crash. After a restart, a pending
// order is reconciled through a status query (find_order_by_reference, R21) before it is sent again.
import { call, ORDERS, report } from './orders.mjs';

const kv = process.env.FAULTLINE_KV_URL;
const read = async (key) => {
  const res = await fetch(`${kv}/${encodeURIComponent(key)}`);
  if (res.status === 404) return undefined;
  if (!res.ok) throw new Error(`GET ${key}: HTTP ${res.status}`);
  return JSON.parse(await res.text());
};
const write = async (key, value) => {
  const res = await fetch(`${kv}/${encodeURIComponent(key)}`, { method: 'PUT', body: JSON.stringify(value) });
  if (!res.ok) throw new Error(`PUT ${key}: HTTP ${res.status}`);
};

for (const order of ORDERS) {
  const key = `order:${order.clientReference}`;
  const record = await read(key);
  if (record?.status === 'done') continue;
  if (record?.status === 'pending') {
    const found = await call('find_order_by_reference', { clientReference: order.clientReference });
    if (found.length > 0) {
      await write(key, { status: 'done', orderId: found[0].orderId });
      continue;
    }
  }
  await write(key, { status: 'pending' });
  const created = await call('create_order', order);
  await write(key, { status: 'done', orderId: created.orderId });
}
const restarts =
  process.env.FAULTLINE_RESTART === '1' ? ` after ${process.env.FAULTLINE_RESTART_COUNT} restart(s)` : '';
await report('completed', `placed ${ORDERS.length} orders${restarts}`);
