/**
 * Streamed model answers and stream faults through nock (its own process: nock and msw share
 * one set of interceptors). The same agents as the msw test: faults off, they place one
 * order; under each stream fault they see it, try again, and place one order. nock cannot
 * tell faultline when a client aborts a request whose headers it already has, so a stalled
 * stream is recorded as lost when the trial ends, not when the client gave up.
 */
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../src/core/index.js';
import type { Fault } from '../../src/faults/fault.js';
import { runWithNock } from '../../src/faults/http/nock.js';
import { CASES, orders, play, STREAM_TIMEOUT_MS } from './streamingAgents.js';

const FAULTS: readonly (Fault | undefined)[] = [
  undefined,
  { kind: 'stream_cut', afterEvents: 2 },
  { kind: 'stream_stall', afterEvents: 2 },
  { kind: 'stream_malformed', afterEvents: 2 },
];

describe.each(CASES)('$name through nock', (c) => {
  it.each(FAULTS.map((f) => [f?.kind ?? 'no fault', f] as const))('%s', async (_name, fault) => {
    const { t, run, responses } = await play(runWithNock, c, fault);
    expect(run.seen).toHaveLength(fault ? 1 : 0);
    expect(orders(t)).toBe(1);
    const faulted = eventsOf(t.history.events, 'fault')[0];
    const first = faulted ? responses.find((r) => r.request === faulted.request) : responses[0];
    if (fault === undefined) expect(first).toMatchObject({ result: 'ok', status: 200 });
    else if (fault.kind === 'stream_stall') {
      expect(first).toMatchObject({ result: 'lost', stream: { events: 2 } });
      expect(first!.message).toMatch(
        /^the stream stalled after 2 of \d+ events \(stream_stall\): no answer by the end of the trial/,
      );
      // The agent gave up at its own timeout and its retry was answered.
      expect(
        eventsOf(t.history.events, 'http_request').filter((r) => r.tool === c.endpoint)[1]!.t,
      ).toBeGreaterThanOrEqual(STREAM_TIMEOUT_MS);
    } else
      expect(first).toMatchObject({
        result: 'error',
        status: 200,
        stream: { events: fault.kind === 'stream_cut' ? 2 : expect.any(Number) },
      });
    expect(responses.filter((r) => r.request !== faulted?.request).every((r) => r.result === 'ok')).toBe(true);
  });
});
