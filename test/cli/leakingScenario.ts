/** A scripted scenario that declares `secret` and puts it in its task, a tool's input and a fault's message: where a leak would show. */
export const leakingScenario = (name: string, secret: string): string => `name: ${name}
secrets: [${secret}]
faults:
  - match: { tool: create_order }
    times: 1
    fault: { kind: rejected, message: "card declined for account ${secret}" }
agent:
  kind: scripted
  task: Create an order; the account key is ${secret}
  plan:
    steps:
      - name: order
        tool: create_order
        input: { clientReference: ${secret}, item: book, quantity: 1, amountCents: 1500 }
`;
