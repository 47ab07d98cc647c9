/** A scenario's `agent:` block in YAML that creates order ref-1: the valid part of the bad files the refusal tests write. */
export const ORDER_AGENT_YAML = `agent:
  kind: scripted
  task: Create order ref-1
  plan:
    steps:
      - name: order
        tool: create_order
        input: { clientReference: ref-1, item: book, quantity: 1, amountCents: 1500 }
`;
