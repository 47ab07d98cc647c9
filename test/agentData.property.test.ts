import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineScenario, defineService, rulebookDefault, runTrial, z } from '../src/public/index.js';

/**
 * Law: whatever an agent function hands a tool (any JavaScript value fast-check can make:
 * BigInts, Maps, Dates, boxed values, null-prototype objects, sparse arrays, getters, cycles,
 * class instances, values nested thousands of levels deep) ends in that trial's own verdict.
 * `runTrial` never rejects, its result prints as JSON (as every report writes it), and a
 * declared secret inside the value appears nowhere in it. Issue 25's sixth pass found three of
 * this class: a BigInt that broke the reports, a throwing getter that ended the run, and a
 * class instance whose secret was kept.
 */

const SECRET = 'S3CRET-7f';

// A tool that takes any JSON: whatever reaches it is recorded in the history and its state.
const sink = defineService({
  name: 'sink',
  description: 'Keeps what it is given.',
  state: (): { kept: unknown[] } => ({ kept: [] }),
  tools: {
    keep: {
      description: 'Keep a value.',
      risk: 'write',
      input: z.object({ value: z.unknown() }).passthrough(),
      run(input, ctx) {
        ctx.state.kept.push(input.value ?? null);
        return { kept: ctx.state.kept.length };
      },
    },
  },
});

class Holder {
  note = `held ${SECRET}`;
}

/** Wraps a value in shapes JSON prints oddly or not at all. */
const odd = (value: unknown): fc.Arbitrary<unknown> =>
  fc.constantFrom<unknown>(
    value,
    Object.assign(new Holder(), { value }),
    { toJSON: () => value },
    Object.defineProperty({}, 'value', { enumerable: true, get: () => value }),
    (() => {
      const cycle: Record<string, unknown> = { value };
      cycle['self'] = cycle;
      return cycle;
    })(),
    (() => {
      let deep: unknown = value;
      for (let i = 0; i < 5_000; i++) deep = { deep };
      return deep;
    })(),
  );

const anyValue = fc
  .anything({
    withBigInt: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withObjectString: true,
    withSparseArray: true,
    withTypedArray: true,
    maxDepth: 4,
  })
  .chain((v) => fc.oneof(fc.constant(v), fc.constant({ secret: SECRET, v }), odd(v), odd({ token: SECRET, v })));

describe('law: any value an agent hands a tool ends in its own trial', () => {
  it('runTrial resolves, its result prints as JSON, and the declared secret is nowhere in it', async () => {
    await fc.assert(
      fc.asyncProperty(anyValue, fc.boolean(), async (value, wrapped) => {
        const scenario = defineScenario({
          name: 'agent-data',
          services: [sink],
          secrets: [SECRET],
          agent: {
            kind: 'function',
            task: 'Keep a value.',
            fn: async ({ tools }) => {
              const r = await tools['keep']!(wrapped ? { value } : value);
              return { outcome: r.kind === 'ok' ? 'completed' : 'failed' };
            },
          },
        });
        const trial = await runTrial({ scenario, config: rulebookDefault, runSeed: 1, trialIndex: 0 });
        const text = JSON.stringify(trial);
        expect(text).not.toContain(SECRET);
        expect(['agent_ended', 'crashed']).toContain(trial.end.kind);
      }),
      { numRuns: 300 },
    );
  });
});
