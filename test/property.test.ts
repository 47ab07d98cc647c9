import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resenderOf } from '../src/checks/modelResends.js';
import { eventsOf } from '../src/core/index.js';
import { CallTracker } from '../src/faults/http/CallTracker.js';
import { faultPlanArbitrary } from '../src/explore/faultPlanArbitrary.js';
import { FaultPlanSchema, type FaultRule } from '../src/faults/plan.js';
import { formatTimeline } from '../src/report/timeline.js';
import { defineScenario, type ScenarioInput } from '../src/scenario/scenario.js';
import { runTrial, type TrialResult } from '../src/runner/trial.js';
import { rulebookDefault } from '../src/runtime/config.js';

/**
 * Whatever the fault plan, a careful agent on the rulebook runtime against services that
 * honour idempotency keys never commits an effect twice and never claims an order that
 * is not there (R18, R21-R25, R29).
 */

const TOOLS = ['create_order', 'charge_payment'];

// The same generator `faultline explore` uses (one copy): the scenario has two calls, one per tool.
const planArb = faultPlanArbitrary({ tools: TOOLS, maxCall: 2 });

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
          {
            name: 'order',
            tool: 'create_order',
            input: { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 },
            subject: 'orders:ref-1',
          },
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
        ensure(
          orders.length <= 1 && payments.length <= 1,
          `more than one record: orders ${orders}, payments ${payments}`,
          plan,
          t,
        );
        for (const claim of eventsOf(t.history, 'agent_end').at(-1)?.claims ?? []) {
          if (claim.status !== 'succeeded') continue;
          const held =
            claim.subject === 'orders:ref-1' ? orders : claim.subject === 'payments:pay-ref-1' ? payments : [];
          ensure(
            held.includes(claim.subject.slice(claim.subject.indexOf(':') + 1)),
            `claims ${claim.subject} succeeded but the snapshot has no such record`,
            plan,
            t,
          );
        }
      }),
      { seed: 20260105, numRuns: 200 },
    );
  });
});

/**
 * Whatever retry count the headers carry (an SDK's own retries above 0, a framework's resends
 * with its client's retries off saying 0, the AI SDK saying nothing), an unchanged model
 * request sent again before any success is one logical call, attempts counted 1, 2, 3…; and
 * only the SDK's own retries are read as the SDK's.
 */
describe('property: resends of one model request are one call, whatever their retry-count header', () => {
  it('groups every resend of an unchanged body into call #1 and names the SDK only for a count above 0', () => {
    const header = fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined });
    fc.assert(
      // The first try says 0 (the SDKs) or nothing (the AI SDK); every later send says anything.
      fc.property(
        fc
          .tuple(fc.constantFrom(0, undefined), fc.array(header, { maxLength: 11 }))
          .map(([first, rest]) => [first, ...rest]),
        (counts) => {
          const tracker = new CallTracker();
          const placed = counts.map((n) =>
            tracker.place({
              operation: 'model:openai.chat.completions',
              purpose: 'call',
              kind: 'model',
              method: 'POST',
              url: 'https://api.openai.com/v1/chat/completions',
              headers: n === undefined ? {} : { 'x-stainless-retry-count': String(n) },
              digest: 'same-body',
            }),
          );
          expect(placed.map((p) => p.call)).toEqual(counts.map(() => 'model:openai.chat.completions#1'));
          expect(placed.map((p) => p.attempt)).toEqual(counts.map((_, i) => i + 1));
          for (const n of counts.slice(1))
            expect(resenderOf(n === undefined ? {} : { sdkRetryCount: n }).layer).toBe(
              (n ?? 0) > 0 ? 'sdk' : 'framework-or-agent',
            );
        },
      ),
      { seed: 20261201, numRuns: 300 },
    );
  });
});

/**
 * A scripted step's written input is judged at load against the tool's input schema (issue 43):
 * a value the schema refuses is refused naming its path, whichever step and field it sits in,
 * while a placeholder in any field is left for the run to fill and check.
 */
describe("property: a scripted step is refused at load exactly where its written input breaks the tool's schema", () => {
  type Kind = 'text' | 'count';
  const FIELDS: Readonly<Record<string, Kind>> = {
    clientReference: 'text',
    item: 'text',
    quantity: 'count',
    amountCents: 'count',
  };
  const NAMES = Object.keys(FIELDS);
  // Not a placeholder (`$…`) nor an `{agent}` slot: a plain string, sent as written.
  const text = fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !/^\$|\{/.test(s));
  const order = fc.record({
    clientReference: text,
    item: text,
    quantity: fc.integer({ min: 1 }),
    amountCents: fc.integer({ min: 1 }),
  });
  const wrong: Readonly<Record<Kind, fc.Arbitrary<unknown>>> = {
    text: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant(''), fc.array(text, { maxLength: 2 })),
    count: fc.oneof(text, fc.integer({ max: 0 }), fc.double({ noInteger: true }), fc.boolean(), fc.constant(null)),
  };
  const broken = fc.constantFrom(...NAMES).chain((field) => fc.tuple(fc.constant(field), wrong[FIELDS[field]!]));

  it('names agent.plan.steps[i].input.<field> for the broken step alone; placeholders elsewhere load', () => {
    fc.assert(
      fc.property(order, broken, fc.nat({ max: 3 }), fc.subarray(NAMES), (input, [field, value], at, filled) => {
        // Four steps after the first, copies of its order whose `filled` fields are placeholders into its answer;
        // step `at + 1` writes `written` in `field`.
        const scenarioWith = (written: unknown): ScenarioInput => {
          const steps = [
            { name: 'first', tool: 'create_order', input },
            ...Array.from({ length: 4 }, () => ({
              tool: 'create_order',
              input: { ...input, ...Object.fromEntries(filled.map((f) => [f, `$first.${f}`])) },
            })),
          ];
          steps[at + 1] = { tool: 'create_order', input: { ...input, [field]: written } };
          return {
            name: 'orders',
            services: ['orders'],
            agent: { kind: 'scripted' as const, task: 't', plan: { steps } },
          };
        };
        let lines: string[] = [];
        try {
          defineScenario(scenarioWith(value));
        } catch (error) {
          lines = (error as { details: { issues: string[] } }).details.issues;
        }
        // One line or more (zod may say two things of one value), each about that field of that step.
        expect(lines.length).toBeGreaterThan(0);
        for (const line of lines) {
          expect(line).toMatch(new RegExp(`^agent\\.plan\\.steps\\[${at + 1}\\]\\.input\\.${field}: `));
          expect(line).toMatch(/ \(by the input schema of "create_order"\)$/);
        }
        // With a value that fits instead, the same plan loads.
        expect(() => defineScenario(scenarioWith(input[field as keyof typeof input]))).not.toThrow();
      }),
      { seed: 20261207, numRuns: 150 },
    );
  });
});
