import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineService, ServiceError } from '../../src/public/index.js';
// Neither adapter: each test file imports the one it runs under (see NOTES-node20.md).
import { createHttpTrial, DEFAULT_TRIAL_START, type HttpTrial } from '../../src/faults/http/index.js';
import type { ClockRun } from '../../src/core/index.js';
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
          throw new ServiceError(402, {
            type: 'card_error',
            code: 'card_declined',
            message: 'Your card was declined.',
            param: 'payment_method',
            details: { decline_code: 'generic_decline' },
          });
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
    error: (e) => ({
      headers: { 'request-id': 'req_decline' },
      body: {
        error: {
          type: e.type,
          code: e.code,
          decline_code: e.details['decline_code'],
          message: e.message,
          param: e.param,
        },
      },
    }),
  },
});

export interface StripeTrial extends HttpTrial {
  /** The service's state: every payment intent by id. */
  readonly intents: () => Readonly<Record<string, PaymentIntent>>;
  readonly forms: unknown[];
}

export function stripeTrial(plan: FaultPlan): StripeTrial {
  forms.length = 0;
  const trial = createHttpTrial({
    plan,
    seed: 5,
    serviceNames: [stripe],
    services: (world) => serviceHttp(world, [stripe]),
  });
  return { ...trial, intents: () => trial.world.snapshot().services['stripe'] as Record<string, PaymentIntent>, forms };
}

/** The official SDK with its defaults (2 network retries, an 80 s timeout, node:http), pointed at the faulted host. */
export const stripeClient = (): Stripe =>
  new Stripe('sk_test_faultline', { host: 'api.stripe.test', protocol: 'https', port: 443 });

/** What went over the wire, from the history: deliveries, their distinct Idempotency-Keys, committed effects, and each response as `t result[:status]`. */
export function wire(trial: HttpTrial): { deliveries: number; keys: string[]; effects: number; responses: string[] } {
  const events = trial.history.events;
  const deliveries = events.filter((e) => e.type === 'delivery');
  const responses = events.flatMap((e) =>
    e.type === 'response' ? [`${e.t}ms ${e.result}${e.status === undefined ? '' : `:${e.status}`}`] : [],
  );
  return {
    deliveries: deliveries.length,
    keys: [...new Set(deliveries.flatMap((e) => (e.idempotencyKey === undefined ? [] : [e.idempotencyKey])))],
    effects: trial.world.ledger.length,
    responses,
  };
}

const order = {
  amount: 2000,
  currency: 'usd',
  payment_method: 'pm_card_visa',
  confirm: true,
  metadata: { order: 'ord-1' },
};

/**
 * The SDK cases, the same under msw and nock; each adapter's test file calls this with its own
 * runner (one interceptor per file: see NOTES-node20.md).
 */
export function describeStripeSdk(
  adapter: string,
  run: <T>(trial: StripeTrial, body: () => Promise<T>) => Promise<ClockRun<T>>,
): void {
  describe(`${adapter}: the official stripe SDK against a user-declared Stripe-shaped route`, () => {
    it('sends the form the route parses: Stripe’s nested keys as objects', async () => {
      const trial = stripeTrial([]);
      const result = await run(trial, () => stripeClient().paymentIntents.create(order));
      expect(result).toMatchObject({
        kind: 'settled',
        value: {
          id: 'pi_1',
          object: 'payment_intent',
          amount: 2000,
          status: 'succeeded',
          metadata: { order: 'ord-1' },
        },
      });
      expect(trial.forms).toEqual([
        {
          amount: '2000',
          currency: 'usd',
          payment_method: 'pm_card_visa',
          confirm: 'true',
          metadata: { order: 'ord-1' },
        },
      ]);
      expect(wire(trial)).toMatchObject({ deliveries: 1, effects: 1, responses: ['0ms ok:200'] });
    });

    it.each([
      // The SDK's 80 s timeout fires, then it waits its 0.5 s backoff and resends.
      ['timeout', 80_500, '80000ms lost'],
      // A reset connection is retried after the same 0.5 s backoff.
      ['network', 500, '0ms error'],
    ] as const)(
      'a partial write lost as %s: 2 deliveries under one idempotency key, 1 effect, one payment intent',
      async (lostAs, at, first) => {
        const trial = stripeTrial([
          { match: { tool: 'create_payment_intent', attempt: 1 }, fault: { kind: 'partial_write', lostAs } },
        ]);
        const result = await run(trial, () => stripeClient().paymentIntents.create(order));
        // The SDK resolves when the replayed answer arrives, `at` virtual ms in.
        expect(result).toMatchObject({
          kind: 'settled',
          value: { id: 'pi_1', status: 'succeeded' },
          at: DEFAULT_TRIAL_START + at,
        });
        expect(wire(trial)).toEqual({
          deliveries: 2,
          keys: [expect.stringMatching(/^stripe-node-retry-[0-9a-f-]{36}$/) as unknown as string],
          effects: 1,
          responses: [first, `${at}ms ok:200`],
        });
        expect(Object.keys(trial.intents())).toEqual(['pi_1']);
      },
    );

    it('a card decline: 402 in Stripe’s error shape, the SDK throws StripeCardError and does not retry', async () => {
      const trial = stripeTrial([]);
      const result = await run(trial, () =>
        stripeClient()
          .paymentIntents.create({ ...order, payment_method: DECLINED_CARD })
          .catch((e: unknown) => e),
      );
      const error = result.kind === 'settled' ? result.value : undefined;
      expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
      expect(error).toMatchObject({
        type: 'StripeCardError',
        statusCode: 402,
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
        param: 'payment_method',
        requestId: 'req_decline',
      });
      expect(wire(trial)).toMatchObject({ deliveries: 1, effects: 0, responses: ['0ms error:402'] });
    });

    it('a fault’s own headers reach the SDK: a 503 with stripe-should-retry: false is not retried, one without it is, twice', async () => {
      const apiError = { error: { type: 'api_error', message: 'Stripe is down for maintenance.' } };
      const told = stripeTrial([
        {
          match: { tool: 'create_payment_intent' },
          fault: { kind: 'unavailable', status: 503, headers: { 'stripe-should-retry': 'false' }, body: apiError },
        },
      ]);
      const once = await run(told, () =>
        stripeClient()
          .paymentIntents.create(order)
          .catch((e: unknown) => e),
      );
      expect(once.kind === 'settled' && once.value).toMatchObject({
        type: 'StripeAPIError',
        statusCode: 503,
        message: 'Stripe is down for maintenance.',
      });
      expect(wire(told)).toMatchObject({ deliveries: 0, responses: ['0ms error:503'] });

      const plain = stripeTrial([
        { match: { tool: 'create_payment_intent' }, fault: { kind: 'unavailable', status: 503, body: apiError } },
      ]);
      const thrice = await run(plain, () =>
        stripeClient()
          .paymentIntents.create(order)
          .catch((e: unknown) => e),
      );
      expect(thrice.kind === 'settled' && thrice.value).toMatchObject({ type: 'StripeAPIError', statusCode: 503 });
      expect(wire(plain).responses).toHaveLength(3);
    });
  });
}
