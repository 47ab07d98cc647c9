// A naive agent: it keeps nothing outside its memory, so after a restart it starts the task over
// and places again every order it had placed before it died (R22, R25: duplicates).
import { call, ORDERS, report } from './orders.mjs';

for (const order of ORDERS) await call('create_order', order);
await report('completed', `placed ${ORDERS.length} orders`);
