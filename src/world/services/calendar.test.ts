import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../core/index.js';
import { createWorld } from '../createWorld.js';
import { deliver, findTool, queryStatus } from '../deliver.js';

const NOW = Date.parse('2025-06-01T09:00:00Z');
const event = {
  clientReference: 'standup',
  title: 'Stand-up',
  start: '2025-06-02T09:00:00Z',
  end: '2025-06-02T09:15:00Z',
};

const calendarWorld = (processingMs = 0) => {
  const clock = new VirtualClock(NOW);
  return { clock, world: createWorld(clock, { calendar: { processingMs } }) };
};

describe('calendar', () => {
  it('checks the structure in the schema: ISO date-times, no extra fields', () => {
    const input = findTool(calendarWorld().world, 'create_calendar_event').input;
    expect(input.safeParse(event).success).toBe(true);
    expect(input.safeParse({ ...event, start: '2025-06-02T10:00:00+02:00' }).success).toBe(true);
    expect(input.safeParse({ ...event, start: 'tomorrow' }).success).toBe(false);
    expect(input.safeParse({ ...event, room: 'A' }).success).toBe(false);
  });

  it('creates an event and commits calendar.event_created', async () => {
    const { world } = calendarWorld();
    expect(await deliver(world, 'create_calendar_event', event, { request: 'req-1' })).toEqual({
      eventId: 'evt-1',
      ...event,
    });
    expect(world.ledger.effects).toEqual([
      {
        seq: 0,
        at: NOW,
        service: 'calendar',
        effect: 'calendar.event_created',
        key: 'standup',
        request: 'req-1',
        data: { eventId: 'evt-1', ...event },
      },
    ]);
    expect(world.snapshot().services).toEqual({ calendar: { 'evt-1': event } });
  });

  it('refuses an end not after start with 422 naming the field', async () => {
    const { world } = calendarWorld();
    for (const end of [event.start, '2025-06-02T08:00:00Z']) {
      await expect(deliver(world, 'create_calendar_event', { ...event, end }, { request: 'r' })).rejects.toMatchObject({
        status: 422,
        body: { error: { type: 'invalid_request_error', param: 'end', message: 'end must be after start' } },
      });
    }
    expect(world.ledger.length).toBe(0);
  });

  it('refuses a start in the past relative to the virtual clock', async () => {
    const { world } = calendarWorld();
    const past = { ...event, start: '2025-06-01T08:59:59Z', end: '2025-06-01T10:00:00Z' };
    await expect(deliver(world, 'create_calendar_event', past, { request: 'r' })).rejects.toMatchObject({
      status: 422,
      body: { error: { param: 'start', message: 'start must not be in the past (now is 2025-06-01T09:00:00.000Z)' } },
    });
    expect(await queryStatus(world, 'create_calendar_event', { op: 'o', input: past }, { request: 's' })).toEqual({
      state: 'failed',
      status: 422,
      message: 'start must not be in the past (now is 2025-06-01T09:00:00.000Z)',
    });
    // Starting right now is not in the past.
    const nowEvent = { ...event, start: '2025-06-01T09:00:00Z', end: '2025-06-01T09:30:00Z' };
    expect(await deliver(world, 'create_calendar_event', nowEvent, { request: 'r2' })).toMatchObject({
      eventId: 'evt-1',
    });
  });

  it('answers status queries by key and by client reference, pending while processing', async () => {
    const { clock, world } = calendarWorld(50);
    expect(
      await clock.run(async () => {
        const p = deliver(world, 'create_calendar_event', event, { request: 'r', idempotencyKey: 'k' });
        expect(
          await queryStatus(
            world,
            'create_calendar_event',
            { op: 'o', businessKey: 'standup', input: {} },
            { request: 's' },
          ),
        ).toEqual({ state: 'pending' });
        await p;
      }),
    ).toMatchObject({ kind: 'settled' });
    const value = { eventId: 'evt-1', ...event };
    expect(
      await queryStatus(world, 'create_calendar_event', { op: 'o', idempotencyKey: 'k', input: {} }, { request: 's' }),
    ).toEqual({ state: 'succeeded', value });
    expect(await queryStatus(world, 'create_calendar_event', { op: 'o', input: event }, { request: 's' })).toEqual({
      state: 'succeeded',
      value,
    });
    expect(world.ledger.effects[0]).toMatchObject({ at: NOW + 50, idempotencyKey: 'k' });
  });
});
