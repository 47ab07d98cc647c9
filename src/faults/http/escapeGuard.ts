import { redactText } from '../../core/secretText.js';

/**
 * The key under which Node's built-in fetch (undici) looks up its global dispatcher. A fetch
 * function captured before msw or nock patched `globalThis.fetch` (an SDK client built at
 * module load) still sends through it, past every interceptor.
 */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/** How to fix an escape, in the words the error and the report use. */
export const ESCAPE_HINT =
  'the client was built with the fetch it found before the trial started (an SDK client created at ' +
  'module load, say): create it inside the agent function, or pass it the global fetch (fetch: (...a) => fetch(...a))';

/** The error an escaped request fails with: what it was, and what to do. */
export function escapeError(method: string, url: string): Error & { code: string } {
  return Object.assign(
    new Error(`${method} ${redactText(url)} escaped faultline's interception and was not sent: ${ESCAPE_HINT}`),
    { code: 'FAULTLINE_ESCAPED_REQUEST' },
  );
}

interface DispatchOptions {
  readonly method?: string;
  readonly origin?: string | URL;
  readonly path?: string;
}

interface DispatchHandler {
  onError?(error: Error): void;
  onResponseError?(controller: unknown, error: Error): void;
}

/**
 * While installed, every request that reaches Node's own fetch dispatcher (one no interceptor
 * took) is refused with `escapeError` and reported to `onEscape`, instead of going to the
 * network. Returns the uninstaller, which puts back whatever dispatcher was there.
 */
export function installEscapeGuard(onEscape: (method: string, url: string) => void): () => void {
  const slot = globalThis as { [GLOBAL_DISPATCHER]?: unknown };
  const had = Object.hasOwn(slot, GLOBAL_DISPATCHER);
  const before = slot[GLOBAL_DISPATCHER];
  const guard = {
    dispatch(options: DispatchOptions, handler: DispatchHandler): boolean {
      const method = (options.method ?? 'GET').toUpperCase();
      const url = `${String(options.origin ?? '')}${options.path ?? ''}`;
      onEscape(method, url);
      const error = escapeError(method, url);
      // Asynchronously, as a real connection failure arrives: the caller is still setting up its handler.
      queueMicrotask(() => (handler.onError ? handler.onError(error) : handler.onResponseError?.(undefined, error)));
      return true;
    },
    close: () => Promise.resolve(),
    destroy: () => Promise.resolve(),
    on: () => guard,
    once: () => guard,
    off: () => guard,
    emit: () => false,
  };
  slot[GLOBAL_DISPATCHER] = guard;
  return () => {
    if (had) slot[GLOBAL_DISPATCHER] = before;
    else delete slot[GLOBAL_DISPATCHER];
  };
}
