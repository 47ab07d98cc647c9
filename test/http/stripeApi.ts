import Stripe from 'stripe';
// Neither adapter: each test file imports the one it runs under (see NOTES-node20.md).
import { createHttpTrial, type HttpRoute, type HttpService, type HttpTrial } from '../../src/faults/http/index.js';
import type { FaultPlan } from '../../src/faults/plan.js';
import { IdempotencyTable, requestFingerprint } from '../../src/world/idempotency.js';
import type { World } from '../../src/world/World.js';

/**
 * A Stripe-shaped API, as a user would hand-write it for their tests: `POST /v1/payment_intents`
 * (form-encoded, as the SDK sends it) over an in-memory map, with server-side idempotency on
 * `Idempotency-Key` (Stripe's own semantics, R24) and card declines answered in Stripe's
 * error shape by the service's error mapper.
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

/** Stripe's business error for a declined card: a 402 the SDK turns into `StripeCardError`. */
class CardDeclined extends Error {
  readonly status = 402;
  constructor(readonly declineCode: string) {
    super('Your card was declined.');
  }
}

/** The payment intents API over `intents`; what each request's form parsed to lands in `forms`. */
export function stripeService(world: World, intents: Map<string, PaymentIntent>, forms: unknown[]): HttpService {
  const idempotency = new IdempotencyTable(world.clock);
  const create: HttpRoute = {
    method: 'POST',
    path: '/v1/payment_intents',
    operation: 'create_payment_intent',
    input: (req) => {
      forms.push(req.body);
      return req.body;
    },
    serve: (input, ctx) => {
      const form = input as { amount: string; currency: string; payment_method?: string; confirm?: string; metadata?: Record<string, string> };
      return idempotency.execute(ctx.idempotencyKey, requestFingerprint('create_payment_intent', form), () => {
        if (form.payment_method === DECLINED_CARD) throw new CardDeclined('generic_decline');
        const intent: PaymentIntent = {
          id: `pi_${intents.size + 1}`,
          object: 'payment_intent',
          amount: Number(form.amount),
          currency: form.currency,
          status: form.confirm === 'true' ? 'succeeded' : 'requires_payment_method',
          payment_method: form.payment_method ?? null,
          metadata: form.metadata ?? {},
        };
        intents.set(intent.id, intent);
        world.ledger.commit({
          at: ctx.clock.now(),
          service: 'stripe',
          effect: 'payment_intent.created',
          key: intent.metadata['order'] ?? intent.id,
          request: ctx.request,
          ...(ctx.idempotencyKey === undefined ? {} : { idempotencyKey: ctx.idempotencyKey }),
          data: { id: intent.id },
        });
        return intent;
      });
    },
  };
  return {
    baseUrl: STRIPE,
    routes: [create],
    error: (e) =>
      e instanceof CardDeclined
        ? { headers: { 'request-id': 'req_decline' }, body: { error: { type: 'card_error', code: 'card_declined', decline_code: e.declineCode, message: e.message, param: 'payment_method' } } }
        : undefined,
  };
}

export interface StripeTrial extends HttpTrial {
  readonly intents: Map<string, PaymentIntent>;
  readonly forms: unknown[];
}

export function stripeTrial(plan: FaultPlan): StripeTrial {
  const intents = new Map<string, PaymentIntent>();
  const forms: unknown[] = [];
  const trial = createHttpTrial({ plan, seed: 5, serviceNames: [], services: (world) => [stripeService(world, intents, forms)] });
  return { ...trial, intents, forms };
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
