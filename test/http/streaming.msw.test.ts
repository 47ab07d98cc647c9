/**
 * Streamed model answers and stream faults through msw, with each official SDK's streaming
 * call: with faults off the agent places one order; with each stream fault on its first model
 * request it sees the failure, tries again, and still places exactly one order, and the
 * history records the fault and how far the stream got.
 */
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../src/core/index.js';
import { finalFromText } from '../../src/model/api/conversation.js';
import { runWithMsw } from '../../src/faults/http/msw.js';
import { STREAM_EVENT_GAP_MS } from '../../src/faults/http/pacedStream.js';
import { CASES, orders, play as playWith, STREAM_TIMEOUT_MS, type Case } from './streamingAgents.js';
import type { Fault } from '../../src/faults/fault.js';

const play = (c: Case, fault?: Fault) => playWith(runWithMsw, c, fault);

describe.each(CASES)('$name', (c) => {
  it('streams the scripted answers: the agent places one order and reads the final answer, every event paced on the virtual clock', async () => {
    const { t, run: agentRun, responses } = await play(c);
    expect(agentRun.seen).toEqual([]);
    expect(finalFromText(agentRun.final)).toMatchObject({
      kind: 'final',
      outcome: 'completed',
      message: 'Order placed.',
    });
    expect(orders(t)).toBe(1);
    expect(responses.length).toBeGreaterThanOrEqual(2);
    for (const r of responses) {
      expect(r).toMatchObject({ result: 'ok', status: 200 });
      expect(r.stream && r.stream.events).toBe(r.stream?.of);
      expect(r.stream!.of).toBeGreaterThan(2);
      // Token counts ride on the streamed answer too (R31).
      expect(r.usage?.input).toBeGreaterThan(0);
    }
    // The first answer took one gap per event.
    const first = eventsOf(t.history.events, 'http_request').find((e) => e.tool === c.endpoint)!;
    expect(responses[0]!.t - first.t).toBe(responses[0]!.stream!.of * STREAM_EVENT_GAP_MS);
  });

  it('stream_cut: the connection drops after 2 events; the agent sees the error, tries again, and still places one order', async () => {
    const { t, run: agentRun, responses } = await play(c, { kind: 'stream_cut', afterEvents: 2 });
    expect(agentRun.seen).toHaveLength(1);
    expect(agentRun.seen[0]).toMatch(/terminated|dropped|Connection error|network|aborted/i);
    expect(orders(t)).toBe(1);
    expect(eventsOf(t.history.events, 'fault').map((f) => f.fault)).toEqual([{ kind: 'stream_cut', afterEvents: 2 }]);
    expect(responses[0]).toMatchObject({ result: 'error', status: 200, errorKind: 'network', stream: { events: 2 } });
    expect(responses[0]!.message).toMatch(/^the connection dropped mid-stream after 2 of \d+ events \(stream_cut\)$/);
    expect(eventsOf(t.history.events, 'model_error')[0]).toMatchObject({
      request: responses[0]!.request,
      error: { kind: 'network', code: 'ECONNRESET' },
    });
    expect(responses.slice(1).every((r) => r.result === 'ok')).toBe(true);
  });

  it('stream_stall: nothing after 2 events until the agent gives up at its own timeout; it tries again and places one order', async () => {
    const { t, run: agentRun, responses } = await play(c, { kind: 'stream_stall', afterEvents: 2 });
    expect(agentRun.seen).toHaveLength(1);
    expect(orders(t)).toBe(1);
    expect(responses[0]).toMatchObject({ result: 'lost', stream: { events: 2 } });
    expect(responses[0]!.message).toMatch(
      new RegExp(
        `^the stream stalled after 2 of \\d+ events \\(stream_stall\\): the client gave up after ${STREAM_TIMEOUT_MS} ms`,
      ),
    );
    expect(eventsOf(t.history.events, 'model_error')[0]).toMatchObject({
      request: responses[0]!.request,
      error: { kind: 'timeout' },
    });
  });

  it('stream_malformed: the third event is not valid JSON; the agent sees the error, tries again, and places one order', async () => {
    const { t, run: agentRun, responses } = await play(c, { kind: 'stream_malformed', afterEvents: 2 });
    expect(agentRun.seen).toHaveLength(1);
    expect(orders(t)).toBe(1);
    expect(responses[0]).toMatchObject({ result: 'error', status: 200, errorKind: 'unknown' });
    expect(responses[0]!.message).toMatch(/^event 3 of \d+ arrived malformed, not valid JSON \(stream_malformed\)$/);
    expect(eventsOf(t.history.events, 'model_error')[0]).toMatchObject({ request: responses[0]!.request });
  });
});
