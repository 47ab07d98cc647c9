// The command agent of bench/served.ts: the same fetches as its in-process agent (REQUESTS
// tickets, one POST each, with an Idempotency-Key), timed from inside, reported in FAULTLINE_RESULT.
import { writeFileSync } from 'node:fs';

const base = process.env.FAULTLINE_HELPDESK_URL;
const requests = Number(process.env.REQUESTS ?? 50);
const t0 = performance.now();
let ok = 0;
for (let i = 0; i < requests; i++) {
  const res = await fetch(`${base}/tickets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': `open-req-${i}` },
    body: JSON.stringify({ requestId: `req-${i}`, subject: 'x' }),
  });
  await res.arrayBuffer();
  if (res.ok) ok++;
}
const loopMs = performance.now() - t0;
writeFileSync(
  process.env.FAULTLINE_RESULT,
  `${JSON.stringify({ outcome: ok === requests ? 'completed' : 'failed', message: `loopMs=${loopMs.toFixed(3)}` })}\n`,
);
