const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The media type of a streamed model answer. */
export const EVENT_STREAM = 'text/event-stream';

/**
 * One server-sent event as it goes over the wire: an `event:` line when the API names its
 * events (Responses, Anthropic Messages; Chat Completions does not), one `data:` line, and the
 * blank line that ends it. JSON never holds a raw line break, so one `data:` line is enough.
 */
export function sseFrame(data: unknown, event?: string): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${text}\n\n`;
}

/** A recorded stream's text cut back into its events, each ending in its blank line; `[]` when it holds none. */
export function sseFrames(text: string): string[] {
  const frames: string[] = [];
  const normalised = text.replace(/\r\n?/g, '\n');
  let start = 0;
  for (;;) {
    const end = normalised.indexOf('\n\n', start);
    if (end < 0) break;
    const frame = normalised.slice(start, end + 2);
    if (frame.trim() !== '') frames.push(frame);
    start = end + 2;
  }
  const rest = normalised.slice(start);
  if (rest.trim() !== '') frames.push(`${rest.replace(/\n*$/, '')}\n\n`);
  return frames;
}

/** The `data:` of one event, joined as the SSE standard joins several lines. */
export function sseData(frame: string): string {
  return frame
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
    .join('\n');
}

/**
 * The event as a `stream_malformed` fault sends it: its JSON cut off in the middle, so no
 * client can parse it, and the frame still well formed (its `event:` line, its blank line).
 */
export function malformedFrame(frame: string): string {
  const data = sseData(frame);
  const cut = data.slice(0, Math.max(1, Math.floor(data.length / 2)));
  const event = frame.split('\n').find((line) => line.startsWith('event:'));
  return `${event === undefined ? '' : `${event}\n`}data: ${cut === data ? '{' : cut}\n\n`;
}

/** Whether a model request asks for its answer as a stream. */
export const asksForStream = (body: unknown): boolean => isObj(body) && body['stream'] === true;

/** Text split into the pieces a streamed answer sends it in: a fixed size, so the same answer always streams the same. */
export function deltas(text: string, size = 24): string[] {
  // By code point, so no piece ends in half a surrogate pair.
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}
