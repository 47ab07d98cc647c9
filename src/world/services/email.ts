import { z } from 'zod';
import { defineService } from '../define/defineService.js';
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

/** The email service's state: the outbox, keyed by email id. */
export type EmailState = Record<string, EmailRecord>;

/** Every email sent, oldest first. */
export const outboxOf = (state: EmailState): EmailView[] =>
  Object.entries(state).map(([emailId, e]) => ({ emailId, ...e }));

/** An outbox. Every delivery of `send_email` sends, unless an honoured idempotency key replays the first. */
export const email = defineService({
  name: 'email',
  description: 'An outbox: send an email, list what was sent.',
  state: (): EmailState => ({}),
  tools: {
    send_email: {
      description: 'Send an email. messageId is your business id for it; sending it twice sends two emails.',
      risk: 'write',
      input: SendEmailInput,
      businessKey: 'messageId',
      run(input, ctx) {
        const emailId = ctx.id('msg');
        const record: EmailRecord = { ...input, sentAt: ctx.now() };
        ctx.state[emailId] = record;
        ctx.effect('email.sent', { key: input.messageId, data: { emailId, ...record } });
        return { emailId, ...record };
      },
      status: (messageId, ctx) => outboxOf(ctx.state).find((e) => e.messageId === messageId),
    },
    list_outbox: {
      description: 'List every email sent, oldest first.',
      risk: 'read',
      input: ListOutboxInput,
      run: (_input, ctx) => outboxOf(ctx.state),
    },
  },
});
