import { hash32, Rng } from '../core/rng.js';
import { betaQuantile } from '../core/stats/betaQuantile.js';
import { passCurves, type TaskTally } from './passK.js';

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
  const key = `${confidence}\u0000${tasks.map((t) => `${t.c}/${t.n}`).join(',')}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const raw = rawCurves(tasks, confidence, key);
  const points = passCurves(tasks);
  const hold = (intervals: readonly Interval[], at: readonly number[]): Interval[] =>
    intervals.map(([lo, hi], i): Interval => [Math.min(lo, at[i]!), Math.max(hi, at[i]!)]);
  const curves = { confidence, hat: hold(raw.hat, points.hat), at: hold(raw.at, points.at) };
  // Reporters each ask for the same cells' intervals; a configuration's Monte Carlo is worth keeping.
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!);
  memo.set(key, curves);
  return curves;
}

const MEMO_SIZE = 256;
const memo = new Map<string, PassIntervalCurves>();

function rawCurves(tasks: readonly TaskTally[], confidence: number, key: string): { hat: readonly Interval[]; at: readonly Interval[] } {
  const n = tasks.length === 0 ? 0 : Math.min(...tasks.map((t) => t.n));
  if (n === 0) return { hat: [], at: [] };
  if (tasks.length === 1) {
    const [lo, hi] = proportionInterval(tasks[0]!.c, tasks[0]!.n, confidence);
    const ks = Array.from({ length: n }, (_, i) => i + 1);
    return {
      hat: ks.map((k): Interval => [lo ** k, hi ** k]),
      at: ks.map((k): Interval => [1 - (1 - lo) ** k, 1 - (1 - hi) ** k]),
    };
  }
  const tail = (1 - confidence) / 2;
  const rng = new Rng(hash32(key));
  const lower = meanDraws(tasks, n, (t) => [t.c, t.n - t.c + 1], rng.fork('lower'));
  const upper = meanDraws(tasks, n, (t) => [t.c + 1, t.n - t.c], rng.fork('upper'));
  const pick = (draws: Float64Array[], q: number): number[] => draws.map((d) => nearestRank(d.sort(), q));
  const hatLo = pick(lower.hat, tail);
  const hatHi = pick(upper.hat, 1 - tail);
  const atLo = pick(lower.at, tail);
  const atHi = pick(upper.at, 1 - tail);
  return {
    hat: hatLo.map((lo, i): Interval => [lo, hatHi[i]!]),
    at: atLo.map((lo, i): Interval => [lo, atHi[i]!]),
  };
}

/**
 * Intervals for pass^k and pass@k at one k; undefined where the point estimate is (k > n).
 *
 * @example passIntervals([{ n: 4, c: 4 }], 2) // { passHat: [0.158, 1], passAt: [0.637, 1] }
 */
export function passIntervals(tasks: readonly TaskTally[], k: number, confidence = DEFAULT_CONFIDENCE): PassIntervals | undefined {
  if (tasks.length === 0 || k < 1 || tasks.some((t) => t.n < k)) return undefined;
  const curves = passIntervalCurves(tasks, confidence);
  return { passHat: curves.hat[k - 1]!, passAt: curves.at[k - 1]! };
}

// For each draw, the mean over tasks of P^k and 1 − (1 − P)^k at every k = 1..n.
function meanDraws(tasks: readonly TaskTally[], n: number, shape: (t: TaskTally) => [number, number], rng: Rng): { hat: Float64Array[]; at: Float64Array[] } {
  const hat = Array.from({ length: n }, () => new Float64Array(MONTE_CARLO_DRAWS));
  const at = Array.from({ length: n }, () => new Float64Array(MONTE_CARLO_DRAWS));
  const shapes = tasks.map(shape);
  for (let d = 0; d < MONTE_CARLO_DRAWS; d++) {
    for (const [a, b] of shapes) {
      const p = a === 0 ? 0 : b === 0 ? 1 : sampleBeta(a, b, rng);
      let all = 1;
      let none = 1;
      for (let k = 0; k < n; k++) {
        all *= p;
        none *= 1 - p;
        hat[k]![d]! += all;
        at[k]![d]! += 1 - none;
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
