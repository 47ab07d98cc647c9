// The orders service's RPC routes (POST <FAULTLINE_ORDERS_URL>/tools/<tool>), shared by the two Node agents.
export async function call(tool, input) {
  const res = await fetch(`${process.env.FAULTLINE_ORDERS_URL}/tools/${tool}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const body = await res.json().catch(() => undefined);
  if (!res.ok) throw new Error(`${tool}: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** The task: two orders, each with a client reference of its own. */
export const ORDERS = [
  { clientReference: 'po-1', item: 'printer', quantity: 1, amountCents: 12_900 },
  { clientReference: 'po-2', item: 'toner', quantity: 2, amountCents: 4_800 },
];

export function report(outcome, message) {
  const claims = ORDERS.map((o) => ({
    subject: `orders:${o.clientReference}`,
    status: outcome === 'completed' ? 'succeeded' : 'unknown',
  }));
  return import('node:fs').then((fs) =>
    fs.writeFileSync(process.env.FAULTLINE_RESULT, JSON.stringify({ outcome, message, claims })),
  );
}
