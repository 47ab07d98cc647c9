import { redactText } from '../../core/secretText.js';

/** The code of the answer a request sent outside any trial gets. */
export const OUTSIDE_TRIAL_CODE = 'FAULTLINE_REQUEST_OUTSIDE_TRIAL';
/** The code of the answer an SDK's telemetry gets inside a trial. */
export const TELEMETRY_CODE = 'FAULTLINE_TELEMETRY_REFUSED';

interface GuardState {
  /** Trials whose interception is up in this thread now. */
  live: number;
  /** What was refused, for the notice (once per method, origin and path). */
  readonly told: Set<string>;
}

// One per thread (each worker has its own globals), shared by every copy of this module in it.
const STATE = Symbol.for('faultline.outboundGuard');
const holder = globalThis as { [STATE]?: GuardState };

/** Whether `hostname` (as `URL` gives it) is this machine: requests there never leave it. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === '::ffff:127.0.0.1'
  );
}

/**
 * Where agent SDKs send their own telemetry, on timers of their own: the OpenAI Agents SDK's
 * trace exporter (on by default, with `OPENAI_API_KEY`). Never the agent's work, and never to be
 * sent: inside a trial too it is answered here (see `refusal`), and the trial is not blamed.
 */
export const SDK_TELEMETRY: readonly { readonly method: string; readonly origin: string; readonly path: string }[] = [
  { method: 'POST', origin: 'https://api.openai.com', path: '/v1/traces/ingest' },
];

export const isSdkTelemetry = (method: string, url: string): boolean =>
  URL.canParse(url) &&
  SDK_TELEMETRY.some(
    (t) => t.method === method.toUpperCase() && new URL(url).origin === t.origin && new URL(url).pathname === t.path,
  );

/** The 403 a refused request gets (JSON, as the APIs answer errors); a client that logs it shows why. */
export function refusal(
  method: string,
  url: string,
  why: string,
  code: string = OUTSIDE_TRIAL_CODE,
): { status: 403; headers: Record<string, string>; body: string } {
  const where = redactText(URL.canParse(url) ? `${new URL(url).origin}${new URL(url).pathname}` : url);
  const message = `faultline refused ${method.toUpperCase()} ${where}: ${why}, so it was answered here and never sent`;
  return {
    status: 403,
    headers: { 'content-type': 'application/json', 'x-faultline-refused': code },
    body: JSON.stringify({ error: { message, type: 'faultline_refused', code } }),
  };
}

/** Why an SDK's telemetry is refused inside a trial. */
export const TELEMETRY_WHY = "it is the SDK's own telemetry (its trace export), which a test run never sends";

function target(
  input: Parameters<typeof fetch>[0],
  init: Parameters<typeof fetch>[1],
): { method: string; url: URL } | undefined {
  const href = input instanceof Request ? input.url : String(input instanceof URL ? input.href : input);
  if (!URL.canParse(href)) return undefined;
  const url = new URL(href);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return { method: (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(), url };
}

/**
 * From the first trial of agent code in this thread (or the load of its module) to the end of
 * the process, a `fetch` that agent code makes to another machine outside any trial's
 * interception (an SDK's trace exporter on its own timer, after the trial; a client built at
 * module load, before it) is answered here with a 403 and never sent: no socket is opened, so
 * no key it carries goes anywhere. Inside a trial, the trial's interception (msw, nock) and its
 * unhandled-request policy decide. The first such request of each endpoint is noted on stderr,
 * its URL redacted. Installing again does nothing.
 */
export function installOutboundGuard(): void {
  if (holder[STATE] !== undefined) return;
  const state: GuardState = { live: 0, told: new Set() };
  // Not enumerable: it is faultline's, not a global an agent added (see globalsFingerprint).
  Object.defineProperty(holder, STATE, { value: state, enumerable: false, configurable: false, writable: false });
  const send = globalThis.fetch;
  const guarded: typeof fetch = (input, init) => {
    const to = state.live > 0 ? undefined : target(input, init);
    if (to === undefined || isLoopbackHost(to.url.hostname)) return send(input, init);
    const where = redactText(`${to.url.origin}${to.url.pathname}`);
    if (!state.told.has(`${to.method} ${where}`)) {
      state.told.add(`${to.method} ${where}`);
      process.stderr.write(
        `faultline: refused ${to.method} ${where} from agent code outside its trial: answered 403 here, never sent\n`,
      );
    }
    const answer = refusal(
      to.method,
      to.url.href,
      "agent code sent it outside its trial (after the trial's interception was torn down, or before it started)",
    );
    return Promise.resolve(
      new Response(answer.body, { status: answer.status, statusText: 'Forbidden', headers: answer.headers }),
    );
  };
  globalThis.fetch = guarded;
}

/** Marks a trial's interception up in this thread, for the guard; returns the mark's end. */
export function interceptionUp(): () => void {
  const state = holder[STATE];
  if (state === undefined) return () => undefined;
  state.live++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    state.live--;
  };
}
