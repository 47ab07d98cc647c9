import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FaultlineError } from '../core/index.js';
import type { ScriptPlanInput } from '../model/script.js';
import { defineService } from '../world/index.js';
import { defineScenario, type ScenarioInput } from './scenario.js';

type StepInput = ScriptPlanInput['steps'][number];

const ORDER = { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 };
const PAY = { paymentReference: 'pay-1', orderId: '$order.orderId', amountCents: 1500, currency: 'EUR' };

const scenario = (steps: StepInput[], extra: Partial<ScenarioInput> = {}): ScenarioInput => ({
  name: 'order-then-pay',
  services: ['orders', 'payments'],
  agent: {
    kind: 'scripted',
    task: 'Order and pay',
    plan: { steps: [{ name: 'order', tool: 'create_order', input: ORDER }, ...steps] },
  },
  ...extra,
});

/** The refusal's lines (without the heading), or [] when the scenario loads. */
function problems(input: ScenarioInput): string[] {
  try {
    defineScenario(input, 'order.yaml');
    return [];
  } catch (error) {
    if (!(error instanceof FaultlineError)) throw error;
    expect(error.message.split('\n')[0]).toBe('order.yaml: invalid scenario "order-then-pay":');
    return (error.details as { issues: string[] }).issues;
  }
}

const BY_PAYMENT = '(by the input schema of "charge_payment")';

describe("a scripted step's input is checked against the tool's input schema at load", () => {
  it('names the step, the field and what the schema expected: a wrong type, a missing field, an unknown field', () => {
    expect(problems(scenario([{ tool: 'charge_payment', input: { ...PAY, amountCents: 'twelve' } }]))).toEqual([
      `agent.plan.steps[1].input.amountCents: Invalid input: expected number, received string ${BY_PAYMENT}`,
    ]);
    const { currency: _, ...noCurrency } = PAY;
    expect(problems(scenario([{ tool: 'charge_payment', input: { ...noCurrency, tip: 1 } }]))).toEqual([
      `agent.plan.steps[1].input.currency: missing: expected string ${BY_PAYMENT}`,
      `agent.plan.steps[1].input.tip: no such field ${BY_PAYMENT}`,
    ]);
  });

  it('a fitting plan loads, and the input is kept as written', () => {
    const loaded = defineScenario(scenario([{ tool: 'charge_payment', input: PAY }]));
    expect(loaded.agent.kind === 'scripted' && loaded.agent.plan.steps[1]?.input).toEqual(PAY);
  });

  it('a placeholder is not judged for its type (it is checked when filled), nor anything under it', () => {
    const steps: StepInput[] = [
      { name: 'pay', tool: 'charge_payment', input: { ...PAY, amountCents: '$order.amountCents' } },
      { tool: 'refund_payment', input: { paymentId: '$pay.paymentId', amountCents: '$pay' } },
      // Beside a placeholder, a written value is still judged.
      { tool: 'refund_payment', input: { paymentId: '$pay.paymentId', amountCents: 0.5 } },
    ];
    expect(problems(scenario(steps))).toEqual([
      'agent.plan.steps[3].input.amountCents: Invalid input: expected int, received number (by the input schema of "refund_payment")',
    ]);
  });

  it('`$$` is a literal dollar sign, judged as the string it is', () => {
    expect(problems(scenario([{ tool: 'charge_payment', input: { ...PAY, amountCents: '$$12' } }]))).toEqual([
      `agent.plan.steps[1].input.amountCents: Invalid input: expected number, received string ${BY_PAYMENT}`,
    ]);
  });

  it('`{agent}` is judged as the first agent fills it: alone it is the number 0, inside a string it stays a string', () => {
    const keyed = { ...ORDER, clientReference: 'ref-{agent}' };
    expect(problems(scenario([{ tool: 'create_order', input: keyed }], { agents: 3 }))).toEqual([]);
    expect(problems(scenario([{ tool: 'create_order', input: { ...ORDER, clientReference: '{agent}' } }]))).toEqual([
      'agent.plan.steps[1].input.clientReference: Invalid input: expected string, received number (by the input schema of "create_order")',
    ]);
  });

  it('a step with fixes is judged as the call after the fix, naming the part (input or fixes) the field is written in', () => {
    // R14: the first call breaks the schema on purpose, and the model repairs it from `fixes`.
    const repaired = { tool: 'charge_payment', input: { ...PAY, currency: 'euro' }, fixes: { currency: 'EUR' } };
    expect(problems(scenario([repaired]))).toEqual([]);
    const still = { tool: 'charge_payment', input: { ...PAY, amountCents: -1 }, fixes: { currency: 'euros' } };
    expect(problems(scenario([still]))).toEqual([
      `agent.plan.steps[1].input.amountCents: Too small: expected number to be >0 ${BY_PAYMENT}`,
      `agent.plan.steps[1].fixes.currency: an ISO 4217 code such as "EUR" ${BY_PAYMENT}`,
    ]);
  });

  it("checks a poll's input and a status query's too", () => {
    const poll = {
      tool: 'get_payment',
      input: { id: 'p-1' },
      until: { path: 'state', in: ['done'] },
      everyMs: 1,
      maxPolls: 1,
    };
    expect(problems(scenario([{ tool: 'query_operation_status', input: {}, poll }]))).toEqual([
      'agent.plan.steps[1].input.operation_id: missing: expected string (by the input schema of "query_operation_status")',
      'agent.plan.steps[1].poll.input.paymentId: missing: expected string (by the input schema of "get_payment")',
      'agent.plan.steps[1].poll.input.id: no such field (by the input schema of "get_payment")',
    ]);
  });

  it('an unknown tool is named once, as unknown, with no schema line', () => {
    expect(problems(scenario([{ tool: 'charge_paymnt', input: { anything: true } }]))).toEqual([
      expect.stringMatching(/^agent\.plan\.steps\[1\]\.tool: "charge_paymnt": no such tool/),
    ]);
  });

  it("leaves the stand-in model's plan for an http agent alone: the agent's own code stands between it and the tool", () => {
    const model = { api: 'openai' as const, plan: { steps: [{ tool: 'create_order', input: { ref: 'ref-1' } }] } };
    const agent = { kind: 'http' as const, task: 't', run: () => Promise.resolve({ outcome: 'completed' as const }) };
    expect(problems({ name: 'order-then-pay', services: ['orders'], agent, model })).toEqual([]);
  });
});

describe('what a step refers to is checked at load too', () => {
  it('refuses a claim subject whose service is not in the world (the honesty checker would find no effect for it), in either plan', () => {
    expect(problems(scenario([{ tool: 'charge_payment', input: PAY, subject: 'payment:pay-1' }]))).toEqual([
      'agent.plan.steps[1].subject: "payment:pay-1": no service "payment" in this scenario\'s world ' +
        '(services: orders, payments); expected service:businessKey',
    ]);
    const model = {
      api: 'openai' as const,
      plan: { steps: [{ tool: 'create_order', input: {}, subject: 'order:ref-1' }] },
    };
    const agent = { kind: 'http' as const, task: 't', run: () => Promise.resolve({ outcome: 'completed' as const }) };
    expect(problems({ name: 'order-then-pay', services: ['orders'], agent, model })).toEqual([
      'model.plan.steps[0].subject: "order:ref-1": no service "order" in this scenario\'s world (services: orders); ' +
        'expected service:businessKey',
    ]);
  });

  it("refuses a placeholder or a poll's until.path into a field the tool's declared output does not have", () => {
    const tickets = defineService({
      name: 'tickets',
      state: () => ({}),
      tools: {
        open_ticket: {
          description: 'Open a ticket.',
          risk: 'write',
          input: z.object({ ref: z.string() }).strict(),
          output: z.object({ ticketId: z.string(), state: z.string() }).strict(),
          run: (input: { ref: string }) => ({ ticketId: `t-${input.ref}`, state: 'open' }),
        },
      },
    });
    const poll = {
      tool: 'open_ticket',
      input: { ref: '$t.ticketId' },
      until: { path: 'status', in: ['done'] },
      everyMs: 1,
      maxPolls: 1,
    };
    const steps = [
      { name: 't', tool: 'open_ticket', input: { ref: 'r-1' } },
      { tool: 'open_ticket', input: { ref: '$t.ticket_id' }, poll },
    ];
    expect(
      problems({
        name: 'order-then-pay',
        services: [tickets],
        agent: { kind: 'scripted', task: 't', plan: { steps } },
      }),
    ).toEqual([
      'agent.plan.steps[1].input.ref: "$t.ticket_id": no answer of "open_ticket" has the field "ticket_id" by its declared output, ' +
        'so the step could never be filled; expected a path its output declares',
      'agent.plan.steps[1].poll.until.path: "status": no answer of "open_ticket" has that field by its declared output, ' +
        'so the poll could never see it end; expected a path its output declares',
    ]);
    // A tool that declares no output is not judged: the built-in ones here.
    expect(problems(scenario([{ tool: 'get_order', input: { orderId: '$order.no.such.field' } }]))).toEqual([]);
  });
});
