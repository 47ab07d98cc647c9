import { z } from 'zod';
import { defineService } from '../define/defineService.js';
import { invalidRequest } from './httpErrors.js';
import type { ServiceOptions } from './ServiceOptions.js';

export const CreateCalendarEventInput = z
  .object({
    clientReference: z.string().min(1),
    title: z.string().min(1),
    start: z.iso.datetime({ offset: true }),
    end: z.iso.datetime({ offset: true }),
  })
  .strict();
export type CreateCalendarEventInput = z.infer<typeof CreateCalendarEventInput>;

/** An event as the snapshot keeps it, keyed by its id. */
export interface CalendarEventRecord {
  readonly clientReference: string;
  readonly title: string;
  readonly start: string;
  readonly end: string;
}

export type CalendarEventView = { readonly eventId: string } & CalendarEventRecord;

export type CalendarOptions = ServiceOptions;

/** The calendar's state: every event, keyed by its id. */
export type CalendarState = Record<string, CalendarEventRecord>;

/** The business rules (R15), checked on arrival: end after start, start not in the past. */
function checkTimes({ start, end }: CreateCalendarEventInput, now: number): void {
  const startMs = Date.parse(start);
  if (Date.parse(end) <= startMs) throw invalidRequest('end', 'end must be after start');
  if (startMs < now)
    throw invalidRequest('start', `start must not be in the past (now is ${new Date(now).toISOString()})`);
}

/**
 * A calendar. The schema checks that `start` and `end` are ISO date-times; the service
 * checks the business rules (R15): end after start, start not in the past.
 */
export const calendar = defineService({
  name: 'calendar',
  description: 'A calendar: create events.',
  state: (): CalendarState => ({}),
  tools: {
    create_calendar_event: {
      description:
        'Create a calendar event. start and end are ISO 8601 date-times; end must be after start and ' +
        'start not in the past. clientReference is your business id for it.',
      risk: 'write',
      input: CreateCalendarEventInput,
      businessKey: 'clientReference',
      check: (input, ctx) => checkTimes(input, ctx.now()),
      run(input, ctx) {
        const eventId = ctx.id('evt');
        const record: CalendarEventRecord = { ...input };
        ctx.state[eventId] = record;
        ctx.effect('calendar.event_created', { key: input.clientReference, data: { eventId, ...record } });
        return { eventId, ...record };
      },
      status: (clientReference, ctx) => {
        const found = Object.entries(ctx.state).find(([, e]) => e.clientReference === clientReference);
        return found && { eventId: found[0], ...found[1] };
      },
    },
  },
});
