import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TRIAL_START, runWithMsw } from '../../src/public/msw.js';
import { DECLINED_CARD, stripeClient, stripeTrial, wire, type StripeTrial } from './stripeApi.js';

// The SDK's default HTTP client is node:http (its NodeHttpClient), which msw intercepts; its
// 80 s request timeout (`req.setTimeout`), its retry backoff (`setTimeout`) and its jitter
// (`Math.random`, seeded from the trial) all run on the virtual clock.
const run = <T>(trial: StripeTrial, body: () => Promise<T>) => runWithMsw(trial.faults, trial.clock, body, { timers: { random: trial.clientRandom } });

const order = { amount: 2000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, metadata: { order: 'ord-1' } };

describe('msw: the official stripe SDK against a user-declared Stripe-shaped route', () => {
  it('sends the form the route parses: Stripe’s nested keys as objects', async () => {
    const trial = stripeTrial([]);
    const result = await run(trial, () => stripeClient().paymentIntents.create(order));
    expect(result).toMatchObject({ kind: 'settled', value: { id: 'pi_1', object: 'payment_intent', amount: 2000, status: 'succeeded', metadata: { order: 'ord-1' } } });
    expect(trial.forms).toEqual([{ amount: '2000', currency: 'usd', payment_method: 'pm_card_visa', confirm: 'true', metadata: { order: 'ord-1' } }]);
    expect(wire(trial)).toMatchObject({ deliveries: 1, effects: 1, responses: ['0ms ok:200'] });
  });

  it.each([
    // The SDK's 80 s timeout fires, then it waits its 0.5 s backoff and resends.
    ['timeout', 80_500, '80000ms lost'],
    // A reset connection is retried after the same 0.5 s backoff.
    ['network', 500, '0ms error'],
  ] as const)('a partial write lost as %s: 2 deliveries under one idempotency key, 1 effect, one payment intent', async (lostAs, at, first) => {
    const trial = stripeTrial([{ match: { tool: 'create_payment_intent', attempt: 1 }, fault: { kind: 'partial_write', lostAs } }]);
    const result = await run(trial, () => stripeClient().paymentIntents.create(order));
    // The SDK resolves when the replayed answer arrives, `at` virtual ms in.
    expect(result).toMatchObject({ kind: 'settled', value: { id: 'pi_1', status: 'succeeded' }, at: DEFAULT_TRIAL_START + at });
    expect(wire(trial)).toEqual({ deliveries: 2, keys: [expect.stringMatching(/^stripe-node-retry-[0-9a-f-]{36}$/) as unknown as string], effects: 1, responses: [first, `${at}ms ok:200`] });
    expect(Object.keys(trial.intents())).toEqual(['pi_1']);
  });

  it('a card decline: 402 in Stripe’s error shape, the SDK throws StripeCardError and does not retry', async () => {
    const trial = stripeTrial([]);
    const result = await run(trial, () => stripeClient().paymentIntents.create({ ...order, payment_method: DECLINED_CARD }).catch((e: unknown) => e));
    const error = result.kind === 'settled' ? result.value : undefined;
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({ type: 'StripeCardError', statusCode: 402, code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.', param: 'payment_method', requestId: 'req_decline' });
    expect(wire(trial)).toMatchObject({ deliveries: 1, effects: 0, responses: ['0ms error:402'] });
  });

  it('a fault’s own headers reach the SDK: a 503 with stripe-should-retry: false is not retried, one without it is, twice', async () => {
    const apiError = { error: { type: 'api_error', message: 'Stripe is down for maintenance.' } };
    const told = stripeTrial([{ match: { tool: 'create_payment_intent' }, fault: { kind: 'unavailable', status: 503, headers: { 'stripe-should-retry': 'false' }, body: apiError } }]);
    const once = await run(told, () => stripeClient().paymentIntents.create(order).catch((e: unknown) => e));
    expect(once.kind === 'settled' && once.value).toMatchObject({ type: 'StripeAPIError', statusCode: 503, message: 'Stripe is down for maintenance.' });
    expect(wire(told)).toMatchObject({ deliveries: 0, responses: ['0ms error:503'] });

    const plain = stripeTrial([{ match: { tool: 'create_payment_intent' }, fault: { kind: 'unavailable', status: 503, body: apiError } }]);
    const thrice = await run(plain, () => stripeClient().paymentIntents.create(order).catch((e: unknown) => e));
    expect(thrice.kind === 'settled' && thrice.value).toMatchObject({ type: 'StripeAPIError', statusCode: 503 });
    expect(wire(plain).responses).toHaveLength(3);
  });
});
