import { z } from 'zod';
import type { Rng } from '../core/index.js';

/**
 * When a scenario's agents start: all at once (a thundering herd), at seeded uniform times over
 * a window, or as a Poisson process (exponential gaps at `perSecond` on average).
 */
export const ArrivalSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('burst') }).strict(),
  // Drawn as a whole number of virtual ms: past 2^53 there are none to draw (the draw never ends).
  z
    .object({
      kind: z.literal('uniform'),
      overMs: z
        .number()
        .positive()
        .max(
          Number.MAX_SAFE_INTEGER,
          `expected at most ${Number.MAX_SAFE_INTEGER} ms (2^53 - 1, the last whole number a draw can give)`,
        ),
    })
    .strict(),
  z.object({ kind: z.literal('poisson'), perSecond: z.number().positive() }).strict(),
]);
export type Arrival = z.infer<typeof ArrivalSchema>;
export type ArrivalKind = Arrival['kind'];

/** Each agent's start, in virtual ms after the trial's start, drawn from `rng` (the same seed, the same starts). */
export function arrivalOffsets(arrival: Arrival, agents: number, rng: Rng): number[] {
  switch (arrival.kind) {
    case 'burst':
      return Array.from({ length: agents }, () => 0);
    case 'uniform':
      return Array.from({ length: agents }, () => rng.int(0, Math.floor(arrival.overMs)));
    case 'poisson': {
      // The first agent arrives at 0; the gaps after it are exponential, rounded to whole ms.
      const out: number[] = [];
      let at = 0;
      for (let i = 0; i < agents; i++) {
        if (i > 0) at += Math.round((-Math.log(1 - rng.next()) / arrival.perSecond) * 1000);
        out.push(at);
      }
      return out;
    }
  }
}
