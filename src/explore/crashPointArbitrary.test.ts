import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FaultPlanSchema } from '../faults/plan.js';
import { AgentCrashTriggerSchema, type AgentCrashTrigger } from '../scenario/agentCrash.js';
import { crashPointArbitrary, explorePlanArbitrary } from './crashPointArbitrary.js';
import { faultPlanArbitrary } from './faultPlanArbitrary.js';

const TOOLS = ['create_order', 'cancel_order'];
const faults = (minRules: number) => faultPlanArbitrary({ tools: [...TOOLS, 'find_order_by_reference'], minRules });
const points = crashPointArbitrary({ writeTools: TOOLS });

describe('crashPointArbitrary and explorePlanArbitrary', () => {
  it('draws every kind of crash point, each valid under crash.agent, aimed at the write tools only', () => {
    const drawn = fc.sample(points, { seed: 5, numRuns: 400 });
    for (const p of drawn) expect(AgentCrashTriggerSchema.safeParse(p).success, JSON.stringify(p)).toBe(true);
    expect(drawn.some((p) => p.afterEffectOf !== undefined && p.nth === undefined)).toBe(true);
    expect(drawn.some((p) => p.nth !== undefined && p.nth > 1)).toBe(true);
    expect(drawn.some((p) => p.afterCall !== undefined)).toBe(true);
    expect(drawn.some((p) => p.atMs !== undefined)).toBe(true);
    expect(new Set(drawn.flatMap((p) => p.afterEffectOf ?? []))).toEqual(new Set(TOOLS));
    // No write tool: no afterEffectOf, the other two still.
    const noWrites = fc.sample(crashPointArbitrary({ writeTools: [] }), { seed: 5, numRuns: 100 });
    expect(noWrites.every((p) => p.afterEffectOf === undefined)).toBe(true);
  });

  it('shrinks a failing crash point to the first effect of the first write tool, from any kind', () => {
    // Any crash point that is not "before the first write" breaks the property: the smallest is the first effect.
    const result = fc.check(
      fc.property(points, (p: AgentCrashTrigger) => p.atMs !== undefined && p.atMs < 0),
      { seed: 9, numRuns: 100 },
    );
    expect(result.failed).toBe(true);
    expect(result.counterexample?.[0]).toEqual({ afterEffectOf: 'create_order' });
  });

  it('without crash points draws exactly the fault plans it drew before (same seed, same plans); with them, a crash in about half', () => {
    const before = fc.sample(faults(1), { seed: 11, numRuns: 200 });
    expect(fc.sample(explorePlanArbitrary(faults), { seed: 11, numRuns: 200 })).toEqual(
      before.map((f) => ({ faults: f })),
    );
    const mixed = fc.sample(explorePlanArbitrary(faults, { points, only: false }), { seed: 11, numRuns: 400 });
    expect(fc.sample(explorePlanArbitrary(faults, { points, only: false }), { seed: 11, numRuns: 400 })).toEqual(mixed);
    const crashed = mixed.filter((p) => p.crash !== undefined).length;
    expect(crashed).toBeGreaterThan(120);
    expect(crashed).toBeLessThan(280);
    for (const p of mixed) {
      expect(p.faults.length > 0 || p.crash !== undefined).toBe(true);
      expect(FaultPlanSchema.safeParse(p.faults).success).toBe(true);
    }
    expect(mixed.some((p) => p.faults.length === 0)).toBe(true);
    const only = fc.sample(explorePlanArbitrary(faults, { points, only: true }), { seed: 11, numRuns: 100 });
    expect(only.every((p) => p.faults.length === 0 && p.crash !== undefined)).toBe(true);
  });

  it('shrinks a plan whose crash alone breaks the agent to that crash, with no rule beside it', () => {
    const result = fc.check(
      fc.property(explorePlanArbitrary(faults, { points, only: false }), (p) => p.crash === undefined),
      { seed: 3, numRuns: 100 },
    );
    expect(result.counterexample?.[0]).toEqual({ faults: [], crash: { afterEffectOf: 'create_order' } });
  });
});
