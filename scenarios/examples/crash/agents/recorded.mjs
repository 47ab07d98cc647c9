// An agent that keeps an operation record (R22) in a file of the trial's working folder
// (FAULTLINE_WORKDIR, which survives a crash): each order is marked `pending` before it is sent
// and `done` once its answer came. After a restart, a pending order is reconciled through a
// status query (find_order_by_reference, R21) before anything is sent again.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, ORDERS, report } from './orders.mjs';

const file = join(process.env.FAULTLINE_WORKDIR, 'operations.json');
const book = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
const save = () => {
  // Written whole, then renamed: a crash mid-write leaves the old record, never half of one.
  writeFileSync(`${file}.tmp`, JSON.stringify(book));
  renameSync(`${file}.tmp`, file);
};

for (const order of ORDERS) {
  const ref = order.clientReference;
  if (book[ref]?.status === 'pending') {
    const found = await call('find_order_by_reference', { clientReference: ref });
    if (found.length > 0) book[ref] = { status: 'done', orderId: found[0].orderId };
    save();
  }
  if (book[ref]?.status === 'done') continue;
  book[ref] = { status: 'pending' };
  save();
  const created = await call('create_order', order);
  book[ref] = { status: 'done', orderId: created.orderId };
  save();
}
const restarts =
  process.env.FAULTLINE_RESTART === '1' ? ` after ${process.env.FAULTLINE_RESTART_COUNT} restart(s)` : '';
await report('completed', `placed ${ORDERS.length} orders${restarts}`);
