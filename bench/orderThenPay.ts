/** The fault-free two-call trial the benches share (create an order, then pay it): a scenario's input, for any checkout's `defineScenario`. */
import type { ScenarioInput } from '../src/scenario/scenario.js';

export const orderThenPay = {
  name: 'order-then-pay',
  agent: {
    kind: 'scripted',
    task: 'Create order and pay',
    plan: {
      steps: [
        {
          name: 'order',
          tool: 'create_order',
          input: { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 },
        },
        {
          tool: 'charge_payment',
          input: { paymentReference: 'pay-1', orderId: '$order.orderId', amountCents: 1500, currency: 'EUR' },
        },
      ],
    },
  },
} satisfies ScenarioInput;
