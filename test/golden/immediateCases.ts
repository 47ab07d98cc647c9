/**
 * Code of the user's that awaits a real `setImmediate` (a library yielding to the event loop)
 * while virtual timers are due: the virtual clock turns in batches of immediates, and such code
 * resumes only after the batch queued before it, so where the batches end decides how many
 * timers fire first, and even whether the trial is called hung. Agents and a service that yield
 * so, for the golden test to pin (a first batch of 16 instead of 64 changed three of these).
 * Written against the public API it is handed, to take the hashes from any built `dist/`.
 */
import type * as Public from '../../src/public/index.js';

export type Api = Pick<typeof Public, 'defineService' | 'defineAgent' | 'z'>;
type ScenarioInput = Public.ScenarioInput;

const immediate = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function immediateCases(api: Api): Record<string, ScenarioInput> {
  const { defineService, defineAgent, z } = api;
  const desk = defineService({
    name: 'desk',
    state: { seen: [] as number[] },
    tools: {
      // A service that yields to the event loop inside a call, then records the virtual time it resumed at.
      note: {
        description: 'Yield, then note the time.',
        risk: 'write',
        input: z.object({ n: z.number().int() }).strict(),
        async run(input, ctx) {
          await immediate();
          ctx.state.seen.push(ctx.now());
          ctx.effect('noted', { key: `n-${input.n}`, data: null });
          return { at: ctx.now() };
        },
      },
    },
  });
  /** `waits` one-millisecond waits in the background, `yields` real immediates awaited meanwhile, then a call. */
  const yielding = (waits: number, yields: number) =>
    defineAgent(async ({ wait, now, tools }) => {
      const background = (async () => {
        for (let i = 0; i < waits; i++) await wait(1);
      })();
      for (let i = 0; i < yields; i++) await immediate();
      const seen = now();
      const noted = await tools['note']!({ n: waits });
      await background;
      return { outcome: 'completed', message: `after ${yields} immediates: t=${seen}, the call ${noted.kind}` };
    });
  const scenario = (name: string, waits: number, yields: number): ScenarioInput => ({
    name,
    services: [desk],
    agent: { kind: 'function', task: 'yield to the event loop while timers are due', fn: yielding(waits, yields) },
  });
  return {
    '40 waits, 2 immediates': scenario('yield-40', 40, 2),
    '100 waits, 2 immediates': scenario('yield-100', 100, 2),
    '200 waits, 3 immediates': scenario('yield-200', 200, 3),
    '10 waits, 1 immediate': scenario('yield-10', 10, 1),
  };
}
