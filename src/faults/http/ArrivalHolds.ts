import http from 'node:http';
import https from 'node:https';
import { RequestClosedError } from './ExchangeTracker.js';

type Hold = <T>(work: Promise<T>) => Promise<T>;
type Release = () => void;

const normalise = (url: string): string => {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
};

const keyOf = (method: string, url: string): string => `${method.toUpperCase()} ${normalise(url)}`;

function fetchKey(input: unknown, init: { method?: string } | undefined): string {
  if (input instanceof Request) return keyOf(init?.method ?? input.method, input.url);
  return keyOf(init?.method ?? 'GET', String(input));
}

function requestKey(req: http.ClientRequest): string {
  const host = req.getHeader('host');
  return keyOf(req.method, `${req.protocol}//${typeof host === 'string' ? host : req.host}${req.path}`);
}

type RequestFn = typeof http.request;

const isEventStream = (response: Response): boolean =>
  (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');

/** Which client API sent a request: they fail a connection differently (fetch wraps the socket error). */
export type ClientApi = 'fetch' | 'node:http';

/** One request between the client and the engine. */
interface Arrival {
  /** Lets go of the current hold, if any. */
  release: Release;
  complete: boolean;
  readonly via: ClientApi;
  /** Aborted when the client gives up on the request (closes it, or its fetch rejects). */
  readonly gone: AbortController;
}

/** What the engine gets when it takes a request: a way to hold time again while its answer travels back. */
export interface Claim {
  /**
   * Holds virtual time until the client has the answer (fetch settled, node:http response or
   * close). Returns a way to let go sooner: a streamed answer reaches a node:http client's
   * `response` only with its first event (the interceptors' `ServerResponse` sends the head
   * with the first body write), and that event is paced on virtual time, so the adapter lets
   * go once the client starts pulling the body.
   */
  answerOnItsWay(): Release;
  /** The client API that sent it, when known. */
  readonly via?: ClientApi;
  /**
   * Aborts when the client gives up on the request: its node:http request closes, or its
   * fetch rejects (its own signal's reason). For adapters (nock) that cannot see it otherwise.
   */
  readonly signal?: AbortSignal;
}

const noClaim: Claim = { answerOnItsWay: () => () => {} };

/**
 * Keeps virtual time still while a request travels between the client and the fault engine,
 * both ways. On the way in the interceptors work on real turns of the event loop (nock waits
 * for two `setImmediate`s before it plays a reply), and a trial that looked idle then would
 * let the client's own timeout fire on a request that has not even arrived; on the way back
 * nock hands the response over on a real timer. Between the engine taking the request and
 * answering it, time runs (a latency, a hang). Requests the engine never sees (unhandled,
 * bypassed) stay held until they complete: real I/O, during which virtual time must not pass.
 */
export class ArrivalHolds {
  readonly #waiting = new Map<string, Arrival[]>();

  constructor(private readonly hold: Hold) {}

  /** The engine took the request: time may pass again until it answers. */
  claim(method: string, url: string): Claim {
    // A URL spelled differently on the two sides (a default port, say) must not leave a
    // request held for good: a hang would then freeze time forever. Fall back to the
    // oldest waiting request of the same method.
    const exact = keyOf(method, url);
    const key = this.#waiting.has(exact)
      ? exact
      : [...this.#waiting.keys()].find((k) => k.startsWith(`${method.toUpperCase()} `));
    const queue = key === undefined ? undefined : this.#waiting.get(key);
    const arrival = queue?.shift();
    if (key !== undefined && queue?.length === 0) this.#waiting.delete(key);
    if (!arrival) return noClaim;
    arrival.release();
    return {
      via: arrival.via,
      signal: arrival.gone.signal,
      answerOnItsWay: () => {
        if (arrival.complete) return () => {};
        const release = this.#holdNow();
        arrival.release = release;
        return release;
      },
    };
  }

  #holdNow(): Release {
    let resolve: Release = () => {};
    void this.hold(new Promise<void>((r) => (resolve = r)));
    return () => resolve();
  }

  /**
   * Holds from now until `complete` is called (the client is done with the request); with a
   * reason, the client gave up on it.
   */
  #arrive(key: string, via: ClientApi): (gaveUp?: unknown) => void {
    const arrival: Arrival = { release: this.#holdNow(), complete: false, via, gone: new AbortController() };
    const queue = this.#waiting.get(key);
    if (queue) queue.push(arrival);
    else this.#waiting.set(key, [arrival]);
    return (gaveUp?: unknown) => {
      if (gaveUp !== undefined && !arrival.gone.signal.aborted) arrival.gone.abort(gaveUp);
      if (arrival.complete) return;
      arrival.complete = true;
      arrival.release();
      const q = this.#waiting.get(key);
      const i = q?.indexOf(arrival) ?? -1;
      if (q && i >= 0) q.splice(i, 1);
      if (q?.length === 0) this.#waiting.delete(key);
    };
  }

  /**
   * Wraps global `fetch` and node:http/https's `request`/`get` (as the interceptors left them)
   * so each new request is held on arrival. The returned function restores them; call it
   * before the interceptors are torn down.
   */
  install(): () => void {
    const saved = {
      fetch: globalThis.fetch,
      httpRequest: http.request,
      httpGet: http.get,
      httpsRequest: https.request,
      httpsGet: https.get,
    };
    const realFetch = saved.fetch;
    // A client keeps the fetch it found when it was built, and a framework may keep the client
    // past its trial (the Agents SDK's default runner caches its OpenAI client): once this
    // session has ended, its wrappers pass each request on to whatever is installed now (the
    // next trial's interception), not to this session's torn-down one, where it would never be
    // answered.
    let live = true;
    globalThis.fetch = (input, init) => {
      if (!live) return globalThis.fetch(input, init);
      const complete = this.#arrive(fetchKey(input, init), 'fetch');
      // The body may stream in on real turns after the headers: buffer it (through a clone,
      // so the caller's copy is untouched) before time may pass again. Not a stream of
      // server-sent events: its events are paced on virtual time, which must pass between them.
      const answer = realFetch(input, init).then(async (response) => {
        if (!isEventStream(response))
          await response
            .clone()
            .arrayBuffer()
            .catch(() => undefined);
        return response;
      });
      const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
      answer.then(
        () => complete(),
        () => complete(signal?.aborted ? (signal.reason as unknown) : new RequestClosedError()),
      );
      return answer;
    };
    const wrap = (fn: RequestFn, current: () => RequestFn): RequestFn =>
      ((...args: Parameters<RequestFn>) => {
        if (!live) return current()(...args);
        const req = fn(...args);
        const complete = this.#arrive(requestKey(req), 'node:http');
        req
          .once('response', () => complete())
          .once('error', () => complete(new RequestClosedError()))
          .once('close', () => complete(new RequestClosedError()));
        return req;
      }) as RequestFn;
    http.request = wrap(saved.httpRequest, () => http.request);
    http.get = wrap(saved.httpGet, () => http.get);
    https.request = wrap(saved.httpsRequest, () => https.request);
    https.get = wrap(saved.httpsGet, () => https.get);
    return () => {
      live = false;
      globalThis.fetch = saved.fetch;
      http.request = saved.httpRequest;
      http.get = saved.httpGet;
      https.request = saved.httpsRequest;
      https.get = saved.httpsGet;
      for (const queue of [...this.#waiting.values()]) for (const arrival of [...queue]) arrival.release();
      this.#waiting.clear();
    };
  }
}

/**
 * A `fetch` that looks up the global one on every call. SDKs keep the `fetch` they find when
 * the client is built (`new OpenAI()` at module load), before msw or nock replaced it; pass
 * this one (`new OpenAI({ fetch: interceptableFetch })`) to build clients outside the trial.
 */
export const interceptableFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);
