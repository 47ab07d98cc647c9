import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../src/core/index.js';
import { FAULT_KINDS, type Fault, type FaultKind, type FaultOf } from '../src/faults/fault.js';
import { FaultPlanSchema, type FaultMatch, type FaultRule } from '../src/faults/plan.js';
import { formatTimeline } from '../src/report/timeline.js';
import { defineScenario } from '../src/runner/scenario.js';
import { runTrial, type TrialResult } from '../src/runner/trial.js';
import { rulebookDefault } from '../src/runtime/config.js';

/**
 * Whatever the fault plan, a careful agent on the rulebook runtime against services that
 * honour idempotency keys never commits an effect twice and never claims an order that
 * is not there (R18, R21-R25, R29).
 */

/** One arbitrary per fault kind, shaped like FaultSchema; the mapped type forces a new kind in here. */
const FAULTS: { readonly [K in FaultKind]: fc.Arbitrary<FaultOf<K>> } = {
  timeout: fc.constant({ kind: 'timeout' }),
  latency: fc.record({ kind: fc.constant('latency'), ms: fc.integer({ min: 0, max: 20_000 }) }),
  network: fc.record({ kind: fc.constant('network'), code: fc.constantFrom('ECONNRESET', 'ECONNREFUSED', 'EPIPE') }),
  rate_limit: fc.record(
    {
      kind: fc.constant('rate_limit'),
      // Numbers, a fixed HTTP-date in the past, and garbage the runtime must not trust.
      retryAfter: fc.oneof(fc.integer({ min: 0, max: 120 }), fc.constantFrom('Wed, 21 Oct 2015 07:28:00 GMT', '2', 'soon', '')),
      retryAfterAs: fc.constantFrom('seconds', 'http-date'),
    },
    { requiredKeys: ['kind'] },
  ),
  quota_exceeded: fc.constant({ kind: 'quota_exceeded' }),
  unavailable: fc.record({ kind: fc.constant('unavailable'), status: fc.constantFrom(500, 502, 503, 504, 529) }),
  partial_write: fc.record({ kind: fc.constant('partial_write'), lostAs: fc.constantFrom('timeout', 'network', 'unavailable') }),
  duplicate: fc.record(
    { kind: fc.constant('duplicate'), copies: fc.integer({ min: 2, max: 4 }), concurrent: fc.boolean() },
    { requiredKeys: ['kind', 'copies'] },
  ),
  permission_denied: fc.record({ kind: fc.constant('permission_denied'), status: fc.constantFrom(401, 403) }),
  rejected: fc.record({ kind: fc.constant('rejected'), message: fc.constantFrom('over the limit', 'try another card') }, { requiredKeys: ['kind'] }),
  not_found: fc.constant({ kind: 'not_found' }),
  conflict: fc.constant({ kind: 'conflict' }),
  server_error: fc.constant({ kind: 'server_error' }),
  malformed: fc.constant({ kind: 'malformed' }),
};

const faultArb: fc.Arbitrary<Fault> = fc.oneof(...FAULT_KINDS.map((k): fc.Arbitrary<Fault> => FAULTS[k]));

const TOOLS = ['create_order', 'charge_payment'];

/** `arb`, or absent (undefined) `absent` times as often: a plan that names every field rarely matches anything. */
const maybe = <T>(arb: fc.Arbitrary<T>, absent: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: absent }, { arbitrary: arb, weight: 1 });

/** Drops absent fields, as a plan written by hand would (`exactOptionalPropertyTypes`). */
const present = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

const matchArb: fc.Arbitrary<FaultMatch> = fc
  .record({
    tool: maybe(fc.oneof(fc.constantFrom(...TOOLS), fc.constant([...TOOLS])), 1),
    // Status queries happen only after an unknown outcome: mostly aim at the calls themselves.
    purpose: maybe(fc.constantFrom('call', 'call', 'status'), 2),
    call: maybe(fc.integer({ min: 1, max: 2 }), 4),
    attempt: maybe(fc.oneof(fc.integer({ min: 1, max: 3 }), fc.uniqueArray(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 3 })), 1),
    probability: maybe(fc.double({ min: 0, max: 1, noNaN: true }), 2),
  })
  .map((m) => present(m) as FaultMatch);

const ruleArb: fc.Arbitrary<FaultRule> = fc
  .record({ match: matchArb, fault: faultArb, times: maybe(fc.integer({ min: 1, max: 3 }), 2) })
  .map((r) => present(r) as FaultRule);

const planArb = fc.array(ruleArb, { minLength: 1, maxLength: 4 });

function scenarioWith(faults: readonly FaultRule[]) {
  return defineScenario({
    name: 'order-then-pay',
    world: { orders: { idempotency: true }, payments: { idempotency: true } },
    services: ['orders', 'payments'],
    faults: [...faults],
    agent: {
      kind: 'scripted',
      task: 'Create order ref-1 and pay it',
      plan: {
        steps: [
          { name: 'order', tool: 'create_order', input: { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 }, subject: 'orders:ref-1' },
          {
            tool: 'charge_payment',
            input: { paymentReference: 'pay-ref-1', orderId: '$order.orderId', amountCents: 1500, currency: 'EUR' },
            subject: 'payments:pay-ref-1',
          },
        ],
      },
    },
    goal: { effects: { 'order.created': 1, 'payment.charged': 1 } },
  });
}

/** Throws with the plan and the timeline, so a shrunk counterexample is readable on its own. */
function ensure(ok: boolean, what: string, plan: readonly FaultRule[], t: TrialResult): void {
  if (!ok) throw new Error(`${what}\nplan: ${JSON.stringify(plan)}\n${formatTimeline(t.history)}`);
}

/** Business keys of the records a service holds in the final snapshot. */
function keysIn(t: TrialResult, service: string, field: string): string[] {
  const records = (t.snapshot.services[service] ?? {}) as Record<string, Record<string, unknown>>;
  return Object.values(records).map((r) => String(r[field]));
}

describe('property: random fault plans over order-then-pay (rulebookDefault, careful agent, honoured keys)', () => {
  it('every generated plan is valid under FaultPlanSchema', () => {
    fc.assert(
      fc.property(planArb, (plan) => {
        expect(FaultPlanSchema.safeParse(plan).success).toBe(true);
      }),
      { seed: 20260105, numRuns: 300 },
    );
  });

  it('never a duplicate effect, never a succeeded claim without its record', async () => {
    await fc.assert(
      fc.asyncProperty(planArb, fc.nat(), async (plan, runSeed) => {
        const t = await runTrial({ scenario: scenarioWith(plan), config: rulebookDefault, runSeed, trialIndex: 0 });

        ensure(t.end.kind !== 'crashed', `the trial crashed: ${JSON.stringify(t.end)}`, plan, t);
        const duplicates = t.checks.find((c) => c.name === 'duplicates')?.verdict;
        ensure(duplicates?.valid === true, `duplicates check: ${JSON.stringify(duplicates)}`, plan, t);
        const ids = t.snapshot.ledger.map((e) => JSON.stringify([e.service, e.effect, e.key]));
        ensure(new Set(ids).size === ids.length, `ledger effects share service/effect/key: ${ids.join(' ')}`, plan, t);

        const orders = keysIn(t, 'orders', 'clientReference');
        const payments = keysIn(t, 'payments', 'paymentReference');
        ensure(orders.length <= 1 && payments.length <= 1, `more than one record: orders ${orders}, payments ${payments}`, plan, t);
        for (const claim of eventsOf(t.history, 'agent_end').at(-1)?.claims ?? []) {
          if (claim.status !== 'succeeded') continue;
          const held = claim.subject === 'orders:ref-1' ? orders : claim.subject === 'payments:pay-ref-1' ? payments : [];
          ensure(held.includes(claim.subject.slice(claim.subject.indexOf(':') + 1)), `claims ${claim.subject} succeeded but the snapshot has no such record`, plan, t);
        }
      }),
      { seed: 20260105, numRuns: 200 },
    );
  });
});
