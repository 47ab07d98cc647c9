import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIE_FAULT_KINDS, MODEL_FAULT_KINDS, STREAM_FAULT_KINDS } from '../faults/fault.js';
import { FaultPlanSchema } from '../faults/plan.js';
import { faultPlanArbitrary } from './faultPlanArbitrary.js';

const TOOLS = ['create_order', 'charge_payment', 'send_email'];

describe('faultPlanArbitrary', () => {
  it('draws only plans FaultPlanSchema accepts, aimed only at the tools it was given', () => {
    fc.assert(
      fc.property(faultPlanArbitrary({ tools: TOOLS }), (plan) => {
        expect(FaultPlanSchema.safeParse(plan).success).toBe(true);
        expect(plan.length).toBeGreaterThanOrEqual(1);
        expect(plan.length).toBeLessThanOrEqual(4);
        for (const rule of plan) for (const t of [rule.match.tool ?? []].flat()) expect(TOOLS).toContain(t);
      }),
      { seed: 42, numRuns: 500 },
    );
  });

  it('names a tool in every rule when told not to hit every delivery (an HTTP agent whose model API is served too)', () => {
    const rules = fc.sample(faultPlanArbitrary({ tools: TOOLS, anyTool: false }), { seed: 3, numRuns: 300 }).flat();
    expect(rules.every((r) => r.match.tool !== undefined)).toBe(true);
    expect(
      fc
        .sample(faultPlanArbitrary({ tools: TOOLS }), { seed: 3, numRuns: 300 })
        .flat()
        .some((r) => r.match.tool === undefined),
    ).toBe(true);
  });

  it(
    'draws every fault kind but the stream faults (they strike only streamed model answers), the ' +
      "lies (asked for) and the model's own mistakes (model routes only), time windows, probabilities and times limits",
    () => {
      const plans = fc.sample(faultPlanArbitrary({ tools: TOOLS }), { seed: 1, numRuns: 500 }).flat();
      const kinds = new Set(plans.map((r) => r.fault.kind));
      expect(kinds.size).toBe(
        FaultPlanSchema.element.shape.fault.options.length -
          STREAM_FAULT_KINDS.length -
          LIE_FAULT_KINDS.length -
          MODEL_FAULT_KINDS.length,
      );
      for (const k of [...STREAM_FAULT_KINDS, ...LIE_FAULT_KINDS, ...MODEL_FAULT_KINDS])
        expect(kinds.has(k)).toBe(false);
      expect(
        plans.some((r) => r.match.from !== undefined && r.match.to !== undefined && r.match.from < r.match.to),
      ).toBe(true);
      expect(plans.some((r) => r.match.probability !== undefined)).toBe(true);
      expect(plans.some((r) => r.times !== undefined)).toBe(true);
      expect(plans.some((r) => r.match.purpose === 'status')).toBe(true);
    },
  );

  it("draws the model's own mistakes on the model routes only, each valid, the same for the same seed", () => {
    const routes = ['model:openai.chat.completions', 'model:openai.responses'];
    const arb = faultPlanArbitrary({ tools: TOOLS, modelRoutes: routes });
    const plans = fc.sample(arb, { seed: 5, numRuns: 300 });
    for (const plan of plans) expect(FaultPlanSchema.safeParse(plan).success).toBe(true);
    const rules = plans.flat();
    const kinds = new Set(rules.map((r) => r.fault.kind));
    for (const k of MODEL_FAULT_KINDS) expect(kinds.has(k), k).toBe(true);
    expect(rules.some((r) => r.fault.kind === 'truncated' && 'at' in r.fault)).toBe(true);
    for (const r of rules.filter((r) => (MODEL_FAULT_KINDS as readonly string[]).includes(r.fault.kind)))
      expect(
        [r.match.tool].flat().every((t) => routes.includes(t!)),
        JSON.stringify(r),
      ).toBe(true);
    expect(JSON.stringify(fc.sample(arb, { seed: 5, numRuns: 300 }))).toBe(JSON.stringify(plans));
    // Without model routes, the plans drawn before these kinds existed.
    expect(
      JSON.stringify(fc.sample(faultPlanArbitrary({ tools: TOOLS, modelRoutes: [] }), { seed: 5, numRuns: 50 })),
    ).toBe(JSON.stringify(fc.sample(faultPlanArbitrary({ tools: TOOLS }), { seed: 5, numRuns: 50 })));
  });

  it('draws the faults that look like success when asked (lies), each valid, the same for the same seed', () => {
    const arb = faultPlanArbitrary({ tools: TOOLS, lies: true });
    const plans = fc.sample(arb, { seed: 3, numRuns: 300 });
    for (const plan of plans) expect(FaultPlanSchema.safeParse(plan).success).toBe(true);
    const kinds = new Set(plans.flat().map((r) => r.fault.kind));
    for (const k of LIE_FAULT_KINDS) expect(kinds.has(k), k).toBe(true);
    expect(JSON.stringify(fc.sample(arb, { seed: 3, numRuns: 300 }))).toBe(JSON.stringify(plans));
  });

  it('draws stream faults only where told a model route streams, each aimed at such a route by name; the same seed, the same plans', () => {
    const ROUTE = 'model:openai.chat.completions';
    const shape = { tools: [...TOOLS, ROUTE, 'model:openai.responses'], anyTool: false, streamed: [ROUTE] };
    const plans = fc.sample(faultPlanArbitrary(shape), { seed: 5, numRuns: 400 });
    expect(fc.sample(faultPlanArbitrary(shape), { seed: 5, numRuns: 400 })).toEqual(plans);
    const rules = plans.flat();
    for (const plan of plans) expect(FaultPlanSchema.safeParse(plan).success).toBe(true);
    const streams = rules.filter((r) => (STREAM_FAULT_KINDS as readonly string[]).includes(r.fault.kind));
    expect(new Set(streams.map((r) => r.fault.kind))).toEqual(new Set(STREAM_FAULT_KINDS));
    for (const r of streams) expect(r.match.tool).toBe(ROUTE);
    // The other kinds are still drawn, most of the time, over every tool.
    expect(streams.length).toBeGreaterThan(rules.length / 10);
    expect(streams.length).toBeLessThan(rules.length / 2);
  });

  // The law explore relies on: whichever rule the failure needs, the others shrink away, and so do its fields.
  it.each([1, 2, 3, 4, 5])('shrinks to the one rule that matters, bare, wherever it stood (seed %i)', (seed) => {
    const details = fc.check(
      fc.property(faultPlanArbitrary({ tools: TOOLS }), (plan) => !plan.some((r) => r.fault.kind === 'duplicate')),
      { seed, numRuns: 1000 },
    );
    expect(details.failed).toBe(true);
    expect(details.counterexample?.[0]).toEqual([{ match: {}, fault: { kind: 'duplicate', copies: 2 } }]);
  });
});
