/** How a POST of the traces to a collector went: the collector's refusal is data, shown to the user, never thrown. */
export type OtlpPostResult =
  | { readonly kind: 'sent'; readonly status: number }
  | { readonly kind: 'refused'; readonly status: number; readonly body: string }
  | { readonly kind: 'unreachable'; readonly message: string };

/** How long a collector may take to answer before the export counts as failed. */
export const OTLP_POST_TIMEOUT_MS = 30_000;

/** POSTs an OTLP/JSON body to `url` (OTLP/HTTP: `Content-Type: application/json`); 2xx is success. */
export async function postOtlpTraces(url: URL, body: string): Promise<OtlpPostResult> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(OTLP_POST_TIMEOUT_MS),
    });
    const text = await response.text();
    if (response.ok) return { kind: 'sent', status: response.status };
    return { kind: 'refused', status: response.status, body: text.slice(0, 500) };
  } catch (e) {
    const cause = e instanceof Error && e.cause instanceof Error ? `: ${e.cause.message}` : '';
    return { kind: 'unreachable', message: `${e instanceof Error ? e.message : String(e)}${cause}` };
  }
}
