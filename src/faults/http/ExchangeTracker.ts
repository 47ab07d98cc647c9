import http from 'node:http';

/** The reason an exchange's signal carries when a node:http client closes its request. */
export class RequestClosedError extends Error {
  override readonly name = 'RequestClosed';
  constructor() {
    super('the client closed the request');
  }
}

/** The trial ended with the request still open. */
export class TrialEndedError extends Error {
  override readonly name = 'TrialEnded';
  constructor() {
    super('the trial ended');
  }
}

/**
 * The `http.ClientRequest` behind an intercepted request, if a node:http client sent it. The
 * interceptors keep it on the Request under a private symbol (`getRawRequest`); finding it by
 * type keeps us off their internals' names.
 */
export function rawClientRequest(request: object): http.ClientRequest | undefined {
  for (const symbol of Object.getOwnPropertySymbols(request)) {
    const value: unknown = (request as Record<symbol, unknown>)[symbol];
    if (value instanceof http.OutgoingMessage) return value as http.ClientRequest;
  }
  return undefined;
}

/**
 * One abort signal per exchange, aborted when the client gives up (its fetch signal, or its
 * node:http request closing) or when the trial ends, whichever comes first.
 */
export class ExchangeTracker {
  readonly #open = new Set<AbortController>();

  track(options: {
    readonly signal?: AbortSignal | undefined;
    readonly raw?: http.ClientRequest | undefined;
  }): AbortSignal {
    const controller = new AbortController();
    this.#open.add(controller);
    const abort = (reason: unknown): void => {
      this.#open.delete(controller);
      if (!controller.signal.aborted) controller.abort(reason);
    };
    const { signal, raw } = options;
    if (signal) {
      if (signal.aborted) abort(signal.reason);
      else signal.addEventListener('abort', () => abort(signal.reason), { once: true });
    }
    raw?.once('close', () => abort(new RequestClosedError()));
    return controller.signal;
  }

  /** Aborts every exchange still open: the trial is over. */
  closeAll(): void {
    for (const c of [...this.#open]) {
      this.#open.delete(c);
      c.abort(new TrialEndedError());
    }
  }
}
