// Test support only (imported by *.test.ts): a tiny service so the wire's tests do not depend on world/services.
import { z } from 'zod';
import { History, Rng, VirtualClock, type WireRequest } from '../core/index.js';
import type { Service } from '../world/Service.js';
import type { ToolSpec } from '../world/tool.js';
import { World } from '../world/World.js';
import type { FaultPlan } from './plan.js';
import { Wire } from './Wire.js';
import { NetworkLatency, type Network } from './network.js';

/** 2025-01-01T00:00:00Z: a round start, so HTTP-dates are easy to read in assertions. */
export const START = Date.UTC(2025, 0, 1);

export interface Counter extends Service {
  readonly count: () => number;
  /** The most deliveries of `increment` that were ever in progress at once. */
  readonly maxInFlight: () => number;
}

/** A counter: `increment` commits one effect per delivery (after `processingMs`), `read` has no status function. */
export function counterService(processingMs = 0): Counter {
  let count = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const increment: ToolSpec<{ by: number }, { count: number }> = {
    name: 'increment',
    description: 'Adds `by` to the counter',
    risk: 'write',
    input: z.object({ by: z.number().int() }).strict(),
    honoursIdempotencyKeys: false,
    canQueryStatus: true,
    async run(input, ctx) {
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      if (processingMs > 0) await ctx.clock.sleep(processingMs);
      inFlight--;
      count += input.by;
      ctx.world.ledger.commit({
        at: ctx.clock.now(),
        service: 'counter',
        effect: 'counter.incremented',
        key: `by-${input.by}`,
        request: ctx.request,
        ...(ctx.idempotencyKey === undefined ? {} : { idempotencyKey: ctx.idempotencyKey }),
        data: { by: input.by },
      });
      return { count };
    },
    status(ref, ctx) {
      const done = ctx.world.ledger.effects.find(
        (e) => e.idempotencyKey !== undefined && e.idempotencyKey === ref.idempotencyKey,
      );
      return done ? { state: 'succeeded', value: done.data } : { state: 'not_found' };
    },
  };
  const read: ToolSpec<Record<string, never>, { count: number }> = {
    name: 'read',
    description: 'Reads the counter',
    risk: 'read',
    input: z.object({}).strict(),
    honoursIdempotencyKeys: true,
    canQueryStatus: false,
    run: () => ({ count }),
  };
  return {
    name: 'counter',
    tools: [increment, read],
    snapshot: () => ({ count }),
    count: () => count,
    maxInFlight: () => maxInFlight,
  };
}

/** A fresh trial around a counter: clock at START, seeded rng, empty history, the wire. */
export function trial(plan: FaultPlan, options: { seed?: number; processingMs?: number; network?: Network } = {}) {
  const clock = new VirtualClock(START);
  const counter = counterService(options.processingMs);
  const world = new World(clock).add(counter);
  const history = new History(clock);
  const rng = new Rng(options.seed ?? 1);
  const network = options.network && new NetworkLatency(options.network, rng.fork('network'));
  const wire = new Wire({ world, plan, clock, rng, history, startMs: START, ...(network && { network }) });
  let n = 0;
  /** A request with sequential ids; by default the first attempt of `call-<n>` to increment by 1. */
  const request = (over: Partial<WireRequest> = {}): WireRequest => {
    n++;
    return {
      request: `req-${n}`,
      tool: 'increment',
      purpose: 'call',
      input: { by: 1 },
      call: `call-${n}`,
      attempt: 1,
      ...over,
    };
  };
  /** The history in short: `fault:timeout`, `delivery:0`, `effect:req-1`, `response:lost`… */
  const trace = (): string[] =>
    history.events.map((e) => {
      switch (e.type) {
        case 'fault':
          return `fault:${e.fault.kind}#${e.rule}`;
        case 'delivery':
          return `delivery:${e.copy}`;
        case 'effect':
          return `effect:${e.request}`;
        case 'response':
          return `response:${e.result}${e.status === undefined ? '' : `:${e.status}`}`;
        default:
          return e.type;
      }
    });
  return { clock, counter, world, history, wire, request, trace };
}

/** Settles a promise into a value, so a test can assert on a rejection's exact shape. */
export async function settle(
  p: Promise<unknown>,
): Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await p };
  } catch (error) {
    return { ok: false, error };
  }
}
