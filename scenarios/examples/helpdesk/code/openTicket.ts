/**
 * The tool as a team ships it, unmodified: global `fetch`, one `Idempotency-Key` per
 * operation, a 5 s `AbortSignal.timeout`, up to three tries, `Retry-After` honoured.
 * `withKey: false` is the bug many real tools have: each try looks like new work.
 */
export interface OpenTicket {
  readonly requestId: string;
  readonly subject: string;
}

export type OpenTicketResult =
  | { readonly ok: true; readonly ticketId: string }
  | { readonly ok: false; readonly status: number | 'network'; readonly detail: string };

export async function openTicket(
  baseUrl: string,
  input: OpenTicket,
  options: { readonly withKey?: boolean } = {},
): Promise<OpenTicketResult> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.withKey ?? true) headers['idempotency-key'] = `open-${input.requestId}`;
  let last: OpenTicketResult = { ok: false, status: 'network', detail: 'not sent' };
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      const res = await fetch(`${baseUrl}/tickets`, {
        method: 'POST',
        headers,
        body: JSON.stringify(input),
        signal: AbortSignal.timeout(5_000),
      });
      if (res.ok) return { ok: true, ticketId: ((await res.json()) as { ticketId: string }).ticketId };
      const body = (await res.json().catch(() => ({}))) as { errors?: { detail?: string }[] };
      last = { ok: false, status: res.status, detail: body.errors?.[0]?.detail ?? res.statusText };
      if (res.status < 500 && res.status !== 429) return last;
      await sleep(Number(res.headers.get('retry-after') ?? '1') * 1000);
    } catch (error) {
      last = { ok: false, status: 'network', detail: error instanceof Error ? error.message : String(error) };
      await sleep(1000);
    }
  }
  return last;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
