import { z } from 'zod';
import { IdSource, type Clock } from '../../core/index.js';
import type { Service } from '../Service.js';
import type { ToolSpec } from '../tool.js';
import { invalidRequest } from './httpErrors.js';
import { Operations } from './Operations.js';
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

/**
 * A calendar. The schema checks that `start` and `end` are ISO date-times; the service
 * checks the business rules (R15): end after start, start not in the past.
 */
export class CalendarService implements Service {
  readonly name = 'calendar';
  readonly tools: readonly ToolSpec[];
  readonly #events = new Map<string, CalendarEventRecord>();
  readonly #ids = new IdSource();
  readonly #ops: Operations;

  constructor(
    private readonly clock: Clock,
    options: CalendarOptions = {},
  ) {
    this.#ops = new Operations(this.name, clock, options);
    this.tools = [this.#create()];
  }

  /** Every event, oldest first. */
  get events(): CalendarEventView[] {
    return [...this.#events].map(([eventId, e]) => ({ eventId, ...e }));
  }

  snapshot(): Record<string, CalendarEventRecord> {
    return Object.fromEntries(this.#events);
  }

  #create(): ToolSpec<CreateCalendarEventInput, CalendarEventView> {
    return {
      name: 'create_calendar_event',
      description:
        'Create a calendar event. start and end are ISO 8601 date-times; end must be after start and start not in the past. clientReference is your business id for it.',
      risk: 'write',
      input: CreateCalendarEventInput,
      honoursIdempotencyKeys: this.#ops.honoursIdempotencyKeys,
      canQueryStatus: true,
      businessKeyField: 'clientReference',
      run: (input, ctx) =>
        this.#ops.write('create_calendar_event', input, input.clientReference, ctx, {
          check: () => this.#checkTimes(input),
          commit: () => {
            const eventId = this.#ids.next('evt');
            const record: CalendarEventRecord = { ...input };
            this.#events.set(eventId, record);
            this.#ops.commit(ctx, 'calendar.event_created', input.clientReference, { eventId, ...record });
            return { eventId, ...record };
          },
        }),
      status: (ref) => this.#ops.status(ref, 'clientReference', (key) => this.events.find((e) => e.clientReference === key)),
    };
  }

  #checkTimes({ start, end }: CreateCalendarEventInput): void {
    const startMs = Date.parse(start);
    if (Date.parse(end) <= startMs) throw invalidRequest('end', 'end must be after start');
    const now = this.clock.now();
    if (startMs < now) {
      throw invalidRequest('start', `start must not be in the past (now is ${new Date(now).toISOString()})`);
    }
  }
}
