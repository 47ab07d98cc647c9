import type { Clock } from '../../core/index.js';
import type { StreamFault } from '../fault.js';
import { socketError, type StreamBody } from './HttpAnswer.js';
import { malformedFrame } from './sse.js';

/**
 * The virtual milliseconds before each event of a streamed answer: small, fixed, so the same
 * answer always streams in the same time, and a client's own timeouts see time pass.
 */
export const STREAM_EVENT_GAP_MS = 10;

/** How a streamed answer ended, as the client saw it: `events` of the `of` it was to have. */
export type StreamEnd =
  | { readonly kind: 'complete'; readonly events: number; readonly of: number }
  /** The connection dropped after `events` (`stream_cut`). */
  | { readonly kind: 'cut'; readonly events: number; readonly of: number }
  /** Event `at` (1-based) was sent corrupt (`stream_malformed`); the client read `events` in all. */
  | { readonly kind: 'malformed'; readonly events: number; readonly of: number; readonly at: number }
  /** Nothing came after `events` (`stream_stall`) until the client gave up (`reason`). */
  | { readonly kind: 'stalled'; readonly events: number; readonly of: number; readonly reason: unknown }
  /** The client stopped reading after `events` (its abort, or it cancelled the body). */
  | { readonly kind: 'left'; readonly events: number; readonly of: number; readonly reason: unknown };
export type StreamEndKind = StreamEnd['kind'];

/** The message a `stream_cut` drops the connection with. */
export const STREAM_CUT_MESSAGE = 'the connection dropped mid-stream';

/**
 * `events` as the client reads them: each after `STREAM_EVENT_GAP_MS` on `clock`, shaped by
 * `fault`. `ended` is told once how the stream ended; `signal` aborts when the client gives up
 * on the request (or the trial ends). While stalled, `stalled` says how far it got.
 */
export function pacedStream(
  events: readonly string[],
  fault: StreamFault | undefined,
  clock: Clock,
  signal: AbortSignal,
  ended: (end: StreamEnd) => void,
  stalled: (events: number) => void,
): StreamBody {
  const of = events.length;
  let sent = 0;
  let malformedAt: number | undefined;
  let done = false;
  const finish = (end: StreamEnd): void => {
    if (done) return;
    done = true;
    // A client that stops reading once it has every event (at `[DONE]`, say) got the whole stream.
    if (end.kind === 'left' && end.events === of) end = { kind: 'complete', events: of, of };
    // A corrupt event the client was sent outranks however the stream then ended.
    ended(
      malformedAt !== undefined && end.kind !== 'cut' && end.kind !== 'stalled'
        ? { kind: 'malformed', events: sent, of, at: malformedAt }
        : end,
    );
  };
  const stall = (): Promise<never> =>
    new Promise<never>((_, reject) => {
      stalled(sent);
      const give = (): void => {
        finish({ kind: 'stalled', events: sent, of, reason: signal.reason });
        reject(signal.reason as Error);
      };
      if (signal.aborted) give();
      else signal.addEventListener('abort', give, { once: true });
    });
  return {
    async next(): Promise<string | undefined> {
      if (done) return undefined;
      if (fault && sent === fault.afterEvents) {
        if (fault.kind === 'stream_cut') {
          finish({ kind: 'cut', events: sent, of });
          throw socketError('ECONNRESET', STREAM_CUT_MESSAGE);
        }
        if (fault.kind === 'stream_stall') return stall();
      }
      if (sent === of) {
        finish({ kind: 'complete', events: sent, of });
        return undefined;
      }
      try {
        await clock.sleep(STREAM_EVENT_GAP_MS, signal);
      } catch (reason) {
        finish({ kind: 'left', events: sent, of, reason });
        throw reason;
      }
      let frame = events[sent]!;
      if (fault?.kind === 'stream_malformed' && sent === fault.afterEvents) {
        frame = malformedFrame(frame);
        malformedAt = sent + 1;
      }
      sent++;
      return frame;
    },
    cancel(reason?: unknown): void {
      finish({ kind: 'left', events: sent, of, reason });
    },
  };
}
