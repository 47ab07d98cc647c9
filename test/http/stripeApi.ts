import Stripe from 'stripe';
import { z } from 'zod';
import { defineService, ServiceError } from '../../src/public/index.js';
// Neither adapter: each test file imports the one it runs under (see NOTES-node20.md).
import { createHttpTrial, type HttpTrial } from '../../src/faults/http/index.js';
import { serviceHttp } from '../../src/faults/http/serviceRoutes.js';
import type { FaultPlan } from '../../src/faults/plan.js';

/**
 * A Stripe-shaped API, declared as a user would with `defineService`: `POST /v1/payment_intents`
 * (form-encoded, as the SDK sends it), server-side idempotency on `Idempotency-Key` (the
 * built-in R24 semantics), and card declines answered in Stripe's own error shape.
 */
export const STRIPE = 'https://api.stripe.test';
export const DECLINED_CARD = 'pm_card_chargeDeclined';

interface PaymentIntent {
  readonly id: string;
  readonly object: 'payment_intent';
  readonly amount: number;
  readonly currency: string;
  readonly status: 'succeeded' | 'requires_payment_method';
  readonly payment_method: string | null;
  readonly metadata: Record<string, string>;
}

/** What each request's form parsed to, for the test that checks Stripe's nested keys. */
const forms: unknown[] = [];

export const stripe = defineService({
  name: 'stripe',
  description: 'Stripe payment intents',
  state: (): Record<string, PaymentIntent> => ({}),
  tools: {
    create_payment_intent: {
      description: 'Create (and optionally confirm) a payment intent.',
      risk: 'write',
      // Forms carry every value as a string.
      input: z.object({
        amount: z.string().regex(/^\d+$/),
        currency: z.string(),
        payment_method: z.string().optional(),
        confirm: z.enum(['true', 'false']).optional(),
        metadata: z.record(z.string(), z.string()).optional(),
      }),
      run(form, ctx) {
        if (form.payment_method === DECLINED_CARD) {
          throw new ServiceError(402, { type: 'card_error', code: 'card_declined', message: 'Your card was declined.', param: 'payment_method', details: { decline_code: 'generic_decline' } });
        }
        const intent: PaymentIntent = {
          id: `pi_${Object.keys(ctx.state).length + 1}`,
          object: 'payment_intent',
          amount: Number(form.amount),
          currency: form.currency,
          status: form.confirm === 'true' ? 'succeeded' : 'requires_payment_method',
          payment_method: form.payment_method ?? null,
          metadata: form.metadata ?? {},
        };
        ctx.state[intent.id] = intent;
        ctx.effect('payment_intent.created', { key: intent.metadata['order'] ?? intent.id, data: { id: intent.id } });
        return intent;
      },
    },
  },
  http: {
    baseUrl: STRIPE,
    routes: [
      {
        method: 'POST',
        path: '/v1/payment_intents',
        tool: 'create_payment_intent',
        input: (req) => {
          forms.push(req.body);
          return req.body;
        },
      },
    ],
    // Stripe's error body, with the request id header its SDK reads.
    error: (e) => ({ headers: { 'request-id': 'req_decline' }, body: { error: { type: e.type, code: e.code, decline_code: e.details['decline_code'], message: e.message, param: e.param } } }),
  },
});

export interface StripeTrial extends HttpTrial {
  /** The service's state: every payment intent by id. */
  readonly intents: () => Readonly<Record<string, PaymentIntent>>;
  readonly forms: unknown[];
}

export function stripeTrial(plan: FaultPlan): StripeTrial {
  forms.length = 0;
  const trial = createHttpTrial({ plan, seed: 5, serviceNames: [stripe], services: (world) => serviceHttp(world, [stripe]) });
  return { ...trial, intents: () => trial.world.snapshot().services['stripe'] as Record<string, PaymentIntent>, forms };
}

/** The official SDK with its defaults (2 network retries, an 80 s timeout, node:http), pointed at the faulted host. */
export const stripeClient = (): Stripe => new Stripe('sk_test_faultline', { host: 'api.stripe.test', protocol: 'https', port: 443 });

/** What went over the wire, from the history: deliveries, their distinct Idempotency-Keys, committed effects, and each response as `t result[:status]`. */
export function wire(trial: HttpTrial): { deliveries: number; keys: string[]; effects: number; responses: string[] } {
  const events = trial.history.events;
  const deliveries = events.filter((e) => e.type === 'delivery');
  const responses = events.flatMap((e) => (e.type === 'response' ? [`${e.t}ms ${e.result}${e.status === undefined ? '' : `:${e.status}`}`] : []));
  return {
    deliveries: deliveries.length,
    keys: [...new Set(deliveries.flatMap((e) => (e.idempotencyKey === undefined ? [] : [e.idempotencyKey])))],
    effects: trial.world.ledger.length,
    responses,
  };
}
