import { hash32, Rng } from '../core/rng.js';
import { betaQuantile } from '../core/stats/betaQuantile.js';
import { passAtK, passCurves, passHatK, type TaskTally } from './passK.js';

/** `[lower, upper]`: a two-sided confidence interval for a rate. */
export type Interval = readonly [lower: number, upper: number];

/** The confidence of every interval a report shows, and of a gate's bound unless it names one. */
export const DEFAULT_CONFIDENCE = 0.95;

/** How the intervals are made, as reports name it. */
export const INTERVAL_METHOD = 'clopper-pearson';

function checkConfidence(confidence: number): void {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`a confidence must be between 0 and 1 (exclusive), got ${confidence}`);
}

/**
 * The exact (Clopper–Pearson) interval for a success rate from `c` successes in `n` trials:
 * lower = Beta(c, n − c + 1)'s α/2 quantile, upper = Beta(c + 1, n − c)'s 1 − α/2 quantile.
 * Its coverage is at least the confidence at every true rate and trial count; the Wilson and
 * Jeffreys intervals, narrower, dip to 91% at some of the rates and counts a CI run has
 * (p = 0.95 with n = 10; p = 0.8 with n = 30), which a gate must not.
 *
 * @example proportionInterval(4, 4) // [0.398, 1]
 */
export function proportionInterval(c: number, n: number, confidence = DEFAULT_CONFIDENCE): Interval {
  checkConfidence(confidence);
  if (!Number.isInteger(n) || n < 1 || !Number.isInteger(c) || c < 0 || c > n) throw new RangeError(`need 0 <= c <= n and n >= 1 (integers), got c = ${c}, n = ${n}`);
  const tail = (1 - confidence) / 2;
  return [c === 0 ? 0 : betaQuantile(tail, c, n - c + 1), c === n ? 1 : betaQuantile(1 - tail, c + 1, n - c)];
}

/** Intervals for pass^k and pass@k at one k. */
export interface PassIntervals {
  readonly passHat: Interval;
  readonly passAt: Interval;
}

/** Intervals for pass^k and pass@k at every k = 1..n (index 0 is k = 1), as `passCurves` gives the points. */
export interface PassIntervalCurves {
  readonly confidence: number;
  readonly hat: readonly Interval[];
  readonly at: readonly Interval[];
}

/** Draws per bound when several tasks are combined: the bounds' Monte Carlo error is then about 0.005. */
export const MONTE_CARLO_DRAWS = 4000;

/**
 * Intervals for pass^k and pass@k at k = 1..n (the smallest n among the tasks).
 *
 * One task: pass^k = p^k and pass@k = 1 − (1 − p)^k rise with p, so the interval of each is
 * the Clopper–Pearson interval of p carried through the function, and covers as that does.
 *
 * Several tasks (a configuration over its scenarios): the rate is the mean over tasks, and no
 * closed form exists. The Clopper–Pearson bounds of one task are quantiles of Beta(c, n − c + 1)
 * (lower) and Beta(c + 1, n − c) (upper), so the lower bound is the α/2 quantile of the mean
 * over tasks of f(P_i) with each P_i drawn from its task's lower Beta (the upper bound likewise):
 * a Monte Carlo of `MONTE_CARLO_DRAWS` draws that reduces to the exact interval for one task.
 * The draws come from an `Rng` seeded by the counts themselves, so the same counts give the
 * same interval in any run, shard or merge.
 *
 * The unbiased point estimates can fall just outside these intervals (pass^k is 0 when c < k,
 * pass@k is 1 when n − c < k, where p^k is not): an interval is widened to hold its own point,
 * which only makes it more conservative.
 */
export function passIntervalCurves(tasks: readonly TaskTally[], confidence = DEFAULT_CONFIDENCE): PassIntervalCurves {
  checkConfidence(confidence);
  const n = tasks.length === 0 ? 0 : Math.min(...tasks.map((t) => t.n));
  const ks = Array.from({ length: n }, (_, i) => i + 1);
  const points = passCurves(tasks);
  const { hat, at } = intervalsAt(tasks, ks, confidence);
  return { confidence, hat: hat.map((i, j) => holding(i, points.hat[j]!)), at: at.map((i, j) => holding(i, points.at[j]!)) };
}

/**
 * Intervals for pass^k and pass@k at one k; undefined where the point estimate is (k > n).
 * The same figures as `passIntervalCurves` at index k − 1 (the draws do not depend on k),
 * without the work for the other ks.
 *
 * @example passIntervals([{ n: 4, c: 4 }], 2) // { passHat: [0.158, 1], passAt: [0.637, 1] }
 */
export function passIntervals(tasks: readonly TaskTally[], k: number, confidence = DEFAULT_CONFIDENCE): PassIntervals | undefined {
  return passIntervalsAt(tasks, [k], confidence)?.[0];
}

/**
 * Intervals at several ks from one Monte Carlo (pass^1 and pass^k of a table row, say); the
 * same figures as `passIntervals` at each. Undefined where any point estimate is (k > n).
 */
export function passIntervalsAt(tasks: readonly TaskTally[], ks: readonly number[], confidence = DEFAULT_CONFIDENCE): PassIntervals[] | undefined {
  checkConfidence(confidence);
  const points = ks.map((k) => ({ hat: passHatK(tasks, k), at: passAtK(tasks, k) }));
  if (points.some((p) => p.hat === undefined || p.at === undefined)) return undefined;
  const order = [...new Set(ks)].sort((a, b) => a - b);
  const { hat, at } = intervalsAt(tasks, order, confidence);
  return ks.map((k, i) => {
    const j = order.indexOf(k);
    return { passHat: holding(hat[j]!, points[i]!.hat!), passAt: holding(at[j]!, points[i]!.at!) };
  });
}

const holding = ([lo, hi]: Interval, point: number): Interval => [Math.min(lo, point), Math.max(hi, point)];

const MEMO_SIZE = 256;
const memo = new Map<string, { hat: Interval[]; at: Interval[] }>();

// The intervals at the given ks (each at most every task's n), before they are widened to hold their points.
function intervalsAt(tasks: readonly TaskTally[], ks: readonly number[], confidence: number): { hat: Interval[]; at: Interval[] } {
  if (ks.length === 0) return { hat: [], at: [] };
  if (tasks.length === 1) {
    const [lo, hi] = proportionInterval(tasks[0]!.c, tasks[0]!.n, confidence);
    return {
      hat: ks.map((k): Interval => [lo ** k, hi ** k]),
      at: ks.map((k): Interval => [1 - (1 - lo) ** k, 1 - (1 - hi) ** k]),
    };
  }
  const seed = `${confidence}\u0000${tasks.map((t) => `${t.c}/${t.n}`).join(',')}`;
  const key = `${seed}\u0000${ks.join(',')}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const tail = (1 - confidence) / 2;
  const rng = new Rng(hash32(seed));
  const lower = meanDraws(tasks, ks, (t) => [t.c, t.n - t.c + 1], rng.fork('lower'));
  const upper = meanDraws(tasks, ks, (t) => [t.c + 1, t.n - t.c], rng.fork('upper'));
  const pick = (draws: Float64Array[], q: number): number[] => draws.map((d) => nearestRank(d.sort(), q));
  const hatLo = pick(lower.hat, tail);
  const hatHi = pick(upper.hat, 1 - tail);
  const atLo = pick(lower.at, tail);
  const atHi = pick(upper.at, 1 - tail);
  const out = {
    hat: hatLo.map((lo, i): Interval => [lo, hatHi[i]!]),
    at: atLo.map((lo, i): Interval => [lo, atHi[i]!]),
  };
  // Every reporter asks for the same configurations' intervals: their Monte Carlo is worth keeping.
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!);
  memo.set(key, out);
  return out;
}

// For each draw, the mean over tasks of P^k and 1 − (1 − P)^k at each k asked for.
function meanDraws(tasks: readonly TaskTally[], ks: readonly number[], shape: (t: TaskTally) => [number, number], rng: Rng): { hat: Float64Array[]; at: Float64Array[] } {
  const hat = ks.map(() => new Float64Array(MONTE_CARLO_DRAWS));
  const at = ks.map(() => new Float64Array(MONTE_CARLO_DRAWS));
  const shapes = tasks.map(shape);
  for (let d = 0; d < MONTE_CARLO_DRAWS; d++) {
    for (const [a, b] of shapes) {
      const p = a === 0 ? 0 : b === 0 ? 1 : sampleBeta(a, b, rng);
      // ks ascend: each power is the last one times the gap's, a multiplication apiece along a whole curve.
      let all = 1;
      let none = 1;
      let last = 0;
      for (let i = 0; i < ks.length; i++) {
        const gap = ks[i]! - last;
        all *= gap === 1 ? p : p ** gap;
        none *= gap === 1 ? 1 - p : (1 - p) ** gap;
        last = ks[i]!;
        hat[i]![d]! += all;
        at[i]![d]! += 1 - none;
      }
    }
  }
  for (const series of [hat, at]) for (const draws of series) for (let d = 0; d < draws.length; d++) draws[d]! /= tasks.length;
  return { hat, at };
}

const nearestRank = (sorted: Float64Array, q: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

/** Beta(a, b) as X / (X + Y) with X ~ Gamma(a), Y ~ Gamma(b); a, b >= 1 here (integer shapes of counts). */
function sampleBeta(a: number, b: number, rng: Rng): number {
  const x = sampleGamma(a, rng);
  const y = sampleGamma(b, rng);
  return x / (x + y);
}

/** Marsaglia and Tsang's method (2000) for shape >= 1. */
function sampleGamma(shape: number, rng: Rng): number {
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let z: number;
    let v: number;
    do {
      z = normal(rng);
      v = 1 + c * z;
    } while (v <= 0);
    v = v * v * v;
    const u = 1 - rng.next();
    if (Math.log(u) < 0.5 * z * z + d - d * v + d * Math.log(v)) return d * v;
  }
}

/** A standard normal draw (Box–Muller; one of the pair is enough here). */
function normal(rng: Rng): number {
  const u = 1 - rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}
