import { z } from 'zod';
import { IdSource, type Clock } from '../../core/index.js';
import type { Service } from '../Service.js';
import type { ToolSpec } from '../tool.js';
import { Operations } from './Operations.js';
import type { ServiceOptions } from './ServiceOptions.js';

export const SendEmailInput = z
  .object({
    messageId: z.string().min(1),
    to: z.email(),
    subject: z.string().min(1),
    body: z.string(),
  })
  .strict();
export type SendEmailInput = z.infer<typeof SendEmailInput>;

export const ListOutboxInput = z.object({}).strict();
export type ListOutboxInput = z.infer<typeof ListOutboxInput>;

/** A sent email as the snapshot keeps it, keyed by its id. */
export interface EmailRecord {
  readonly messageId: string;
  readonly to: string;
  readonly subject: string;
  readonly body: string;
  /** Virtual milliseconds since the Unix epoch. */
  readonly sentAt: number;
}

export type EmailView = { readonly emailId: string } & EmailRecord;

export type EmailOptions = ServiceOptions;

/** An outbox. Every delivery of `send_email` sends, unless an honoured idempotency key replays the first. */
export class EmailService implements Service {
  readonly name = 'email';
  readonly tools: readonly ToolSpec[];
  readonly #outbox = new Map<string, EmailRecord>();
  readonly #ids = new IdSource();
  readonly #ops: Operations;

  constructor(
    private readonly clock: Clock,
    options: EmailOptions = {},
  ) {
    this.#ops = new Operations(this.name, clock, options);
    this.tools = [this.#send(), this.#list()];
  }

  /** Every email sent, oldest first. */
  get outbox(): EmailView[] {
    return [...this.#outbox].map(([emailId, e]) => ({ emailId, ...e }));
  }

  snapshot(): Record<string, EmailRecord> {
    return Object.fromEntries(this.#outbox);
  }

  #send(): ToolSpec<SendEmailInput, EmailView> {
    return {
      name: 'send_email',
      description: 'Send an email. messageId is your business id for it; sending it twice sends two emails.',
      risk: 'write',
      input: SendEmailInput,
      honoursIdempotencyKeys: this.#ops.honoursIdempotencyKeys,
      canQueryStatus: true,
      businessKeyField: 'messageId',
      run: (input, ctx) =>
        this.#ops.write('send_email', input, input.messageId, ctx, {
          commit: () => {
            const emailId = this.#ids.next('msg');
            const record: EmailRecord = { ...input, sentAt: this.clock.now() };
            this.#outbox.set(emailId, record);
            this.#ops.commit(ctx, 'email.sent', input.messageId, { emailId, ...record });
            return { emailId, ...record };
          },
        }),
      status: (ref) => this.#ops.status(ref, 'messageId', (key) => this.outbox.find((e) => e.messageId === key)),
    };
  }

  #list(): ToolSpec<ListOutboxInput, EmailView[]> {
    return {
      name: 'list_outbox',
      description: 'List every email sent, oldest first.',
      risk: 'read',
      input: ListOutboxInput,
      honoursIdempotencyKeys: false,
      canQueryStatus: false,
      run: () => this.outbox,
    };
  }
}
