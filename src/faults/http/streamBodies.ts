import { Readable } from 'node:stream';
import { injected, type HttpAnswer, type StreamBody } from './HttpAnswer.js';

type StreamAnswer = Extract<HttpAnswer, { kind: 'stream' }>;

/** The events as they are, when no engine paced them. */
function unpaced(events: readonly string[]): StreamBody {
  let i = 0;
  return { next: () => Promise.resolve(events[i++]), cancel: () => {} };
}

/** `answer`'s body, telling `pulled` once, before the first event is asked for. */
function bodyOf(answer: StreamAnswer, pulled: () => void): StreamBody {
  const body = answer.body ?? unpaced(answer.events);
  let first = true;
  return {
    next: () => {
      if (first) {
        first = false;
        pulled();
      }
      return body.next();
    },
    cancel: (reason) => body.cancel(reason),
  };
}

/**
 * What undici's `fetch` raises when the connection drops mid-body: `TypeError: terminated`,
 * the socket error as its `cause`. The same for a mocked answer, so clients see what they would.
 */
function terminated(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ECONNRESET') return error;
  return injected(Object.assign(new TypeError('terminated', { cause: error })));
}

/**
 * A streamed answer's body as a web `ReadableStream`, pulled one event at a time (no
 * read-ahead: the next event is made only when the client asks, so its pacing is the
 * client's reading). A dropped connection errors the stream as fetch's would. `pulled` is
 * told when the first event is asked for.
 */
export function webStream(
  answer: StreamAnswer,
  viaFetch: boolean,
  pulled: () => void = () => {},
): ReadableStream<Uint8Array> {
  const body = bodyOf(answer, pulled);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const event = await body.next();
          if (event === undefined) controller.close();
          else controller.enqueue(encoder.encode(event));
        } catch (error) {
          controller.error(viaFetch ? terminated(error) : error);
        }
      },
      cancel(reason) {
        body.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * A streamed answer's body as a Node `Readable` (for nock), one event per read; a dropped
 * connection destroys it with the socket error. nock starts reading the body on a real timer
 * after the headers: `hold` keeps virtual time still until it has, so no client timer fires
 * in that gap. `pulled` is told when the first event is asked for.
 */
export function nodeStream(
  answer: StreamAnswer,
  hold: <T>(work: Promise<T>) => Promise<T>,
  pulled: () => void = () => {},
): Readable {
  const body = bodyOf(answer, pulled);
  let started: () => void = () => {};
  void hold(new Promise<void>((resolve) => (started = resolve)));
  const stream = new Readable({
    highWaterMark: 0,
    read() {
      started();
      body.next().then(
        (event) => this.push(event === undefined ? null : Buffer.from(event, 'utf8')),
        (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
      );
    },
    destroy(error, callback) {
      started();
      body.cancel(error ?? undefined);
      callback(error);
    },
  });
  return stream;
}
