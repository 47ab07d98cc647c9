/** Agents that misbehave after doing real work: shared by the tests of `run`'s workers and of the commands that reproduce their trials. */

/** A TypeScript scenario whose agent creates an order, then does `misbehaviour`, then claims success. */
export const agentScenario = (name: string, misbehaviour: string): string => `
type Tools = Record<string, (input: unknown) => Promise<{ kind: string }>>;
${scenarioBody(name, misbehaviour, '{ tools }: { tools: Tools }', '!')}`;

/**
 * The same scenario as plain JavaScript (`misbehaviour` in JavaScript too), for a `.mjs` file: a
 * worker loads it without tsx, where the language of the agent's file is not what a test is about.
 */
export const agentScenarioJs = (name: string, misbehaviour: string): string =>
  `\n${scenarioBody(name, misbehaviour, '{ tools }', '')}`;

const scenarioBody = (
  name: string,
  misbehaviour: string,
  parameter: string,
  nonNull: string,
): string => `export default {
  name: '${name}',
  agent: {
    kind: 'function',
    task: 'create an order, then: ${name}',
    fn: async (${parameter}) => {
      await tools['create_order']${nonNull}({ clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 });
      ${misbehaviour}
      return { outcome: 'completed', claims: [{ subject: 'orders:ref-1', status: 'succeeded' }] };
    },
  },
  goal: { effects: { 'order.created': 1 } },
};
`;

export const EXITS_SEVEN = 'process.exit(7);';
export const REJECTS_UNHANDLED = "void Promise.reject(new Error('nobody handles this'));";
export const LOOPS_FOREVER = 'for (;;) { /* spin */ }';
export const THROWS_IN_TIMER =
  "setTimeout(() => { throw new Error('boom in a timer'); }, 0); await new Promise((resolve) => setImmediate(resolve));";
/** Plain JavaScript (and valid TypeScript): a `.mjs` agent file holds it. */
export const SABOTAGES_DATE = "Date.prototype.toISOString = () => { throw new Error('sabotaged'); };";

/**
 * The watchdog of the trials of an agent that spins for ever, where what it did before the loop
 * is not the claim: the verdict is `hung` however long the watchdog waits, and its thread spins a
 * core until then (twice per hung trial of replay, sweep --replay and explore, which run it again
 * to stream its history), so the wait is short.
 */
export const SPIN_MS = '500';
