import { z } from 'zod';
import type { Rng } from './rng.js';

// NaN (YAML `.nan`) fails the type check itself: say what a number here must be, not zod's "received NaN".
const finite = {
  error: (i: { code: string; input: unknown }) =>
    i.code === 'invalid_type' && i.input !== undefined ? 'expected a finite number' : undefined,
};
const ms = (what: string) => z.number(finite).nonnegative().finite().describe(what);

/**
 * A distribution of durations, in milliseconds: what one network leg takes. Plain data, drawn
 * with `sample(dist, rng)` from a seeded `Rng`, so the same seed draws the same durations.
 *
 * - `constant {ms}`: always `ms`.
 * - `uniform {minMs, maxMs}`: any value in [minMs, maxMs).
 * - `normal {meanMs, sdMs}`: N(mean, sd) truncated at zero by redrawing (see `sample`).
 * - `lognormal {medianMs, sigma}` or `{mu, sigma}`: e^N(mu, sigma); `medianMs` is e^mu, and
 *   `sigma` the spread of the logarithm (the 84th percentile is medianMs × e^sigma).
 * - `exponential {meanMs}`: memoryless, mean (and sd) `meanMs`.
 */
export const DistributionSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('constant'), ms: ms('Every draw, in ms.') }).strict(),
    z
      .object({
        kind: z.literal('uniform'),
        minMs: ms('The least draw, in ms.'),
        maxMs: ms('The bound draws stay below, in ms.'),
      })
      .strict()
      .refine((d) => d.minMs <= d.maxMs, { message: 'minMs must not exceed maxMs', path: ['maxMs'] }),
    z
      .object({
        kind: z.literal('normal'),
        meanMs: ms('The mean, in ms (before truncation at zero).'),
        sdMs: z
          .number()
          .nonnegative('sdMs is a standard deviation: it cannot be negative')
          .finite()
          .describe('The standard deviation, in ms.'),
      })
      .strict(),
    z
      .object({
        kind: z.literal('lognormal'),
        medianMs: z
          .number()
          .positive('medianMs must be above 0 (it is e^mu)')
          .finite()
          .optional()
          .describe('The median, in ms (e^mu); give it or mu.'),
        mu: z
          .number()
          .finite()
          .optional()
          .describe('The mean of the logarithm of the draw in ms; give it or medianMs.'),
        sigma: z
          .number()
          .nonnegative('sigma is a standard deviation of the logarithm: it cannot be negative')
          .finite()
          .describe('The spread: the standard deviation of the logarithm (p84 = median × e^sigma).'),
      })
      .strict()
      .refine((d) => (d.medianMs === undefined) !== (d.mu === undefined), {
        message: 'give exactly one of medianMs and mu',
        path: ['medianMs'],
      }),
    z.object({ kind: z.literal('exponential'), meanMs: ms('The mean, in ms.') }).strict(),
  ])
  .meta({ id: 'Distribution' });
export type Distribution = z.infer<typeof DistributionSchema>;
export type DistributionKind = Distribution['kind'];

/** A normal draw truncated at zero is redrawn at most this often (each try succeeds with p ≥ ½, as meanMs ≥ 0). */
const MAX_REDRAWS = 64;

/**
 * One draw from `dist`, in (fractional) milliseconds, never negative.
 *
 * A normal is truncated at zero by redrawing, not by clamping: clamping piles the negative
 * tail onto exactly 0 ms, and equal arrival times are the lockstep a latency distribution is
 * there to break. With `meanMs ≥ 0` each draw is kept with probability ½ or more; after
 * `MAX_REDRAWS` refusals (2^-64) the draw is 0. For the N(10 ms, 2 ms) of AWS's backoff
 * simulator the two choices differ with probability 3·10^-7 per draw.
 *
 * @example
 * sample({ kind: 'normal', meanMs: 10, sdMs: 2 }, rng.fork('network')); // 9.71…
 */
export function sample(dist: Distribution, rng: Rng): number {
  switch (dist.kind) {
    case 'constant':
      return dist.ms;
    case 'uniform':
      return rng.between(dist.minMs, dist.maxMs);
    case 'normal': {
      for (let i = 0; i < MAX_REDRAWS; i++) {
        const x = dist.meanMs + dist.sdMs * standardNormal(rng);
        if (x >= 0) return x;
      }
      return 0;
    }
    case 'lognormal': {
      const mu = dist.mu ?? Math.log(dist.medianMs!);
      return Math.exp(mu + dist.sigma * standardNormal(rng));
    }
    case 'exponential':
      // 1 - next() lies in (0, 1]: the logarithm is finite.
      return -dist.meanMs * Math.log(1 - rng.next());
  }
}

/** One N(0, 1) draw (Box–Muller, its cosine half: two uniforms per draw, no state kept between draws). */
function standardNormal(rng: Rng): number {
  const u1 = 1 - rng.next();
  const u2 = rng.next();
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}
