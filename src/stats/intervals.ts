import { hash32, Rng } from '../core/rng.js';
import { betaQuantile } from '../core/stats/betaQuantile.js';
import { nthSmallest } from '../core/stats/nthSmallest.js';
import { passAtK, passCurves, passHatK, type TaskTally } from './passK.js';

/** `[lower, upper]`: a two-sided confidence interval for a rate. */
export type Interval = readonly [lower: number, upper: number];

/** The confidence of every interval a report shows, and of a gate's bound unless it names one. */
export const DEFAULT_CONFIDENCE = 0.95;

/** How the intervals are made, as reports name it. */
export const INTERVAL_METHOD = 'clopper-pearson';

function checkConfidence(confidence: number): void {
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`a confidence must be between 0 and 1 (exclusive), got ${confidence}`);
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
  if (!Number.isInteger(n) || n < 1 || !Number.isInteger(c) || c < 0 || c > n)
    throw new RangeError(`need 0 <= c <= n and n >= 1 (integers), got c = ${c}, n = ${n}`);
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
  return {
    confidence,
    hat: hat.map((i, j) => holding(i, points.hat[j]!)),
    at: at.map((i, j) => holding(i, points.at[j]!)),
  };
}

/**
 * Intervals for pass^k and pass@k at one k; undefined where the point estimate is (k > n).
 * The same figures as `passIntervalCurves` at index k − 1 (the draws do not depend on k),
 * without the work for the other ks.
 *
 * @example passIntervals([{ n: 4, c: 4 }], 2) // { passHat: [0.158, 1], passAt: [0.637, 1] }
 */
export function passIntervals(
  tasks: readonly TaskTally[],
  k: number,
  confidence = DEFAULT_CONFIDENCE,
): PassIntervals | undefined {
  return passIntervalsAt(tasks, [k], confidence)?.[0];
}

/**
 * Intervals at several ks from one Monte Carlo (pass^1 and pass^k of a table row, say); the
 * same figures as `passIntervals` at each. Undefined where any point estimate is (k > n).
 */
export function passIntervalsAt(
  tasks: readonly TaskTally[],
  ks: readonly number[],
  confidence = DEFAULT_CONFIDENCE,
): PassIntervals[] | undefined {
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
function intervalsAt(
  tasks: readonly TaskTally[],
  ks: readonly number[],
  confidence: number,
): { hat: Interval[]; at: Interval[] } {
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
  const scratch = new DrawScratch(tasks.length, ks.length);
  const lower = boundQuantiles(tasks, ks, LOWER, rng.fork('lower'), tail, scratch);
  const upper = boundQuantiles(tasks, ks, UPPER, rng.fork('upper'), 1 - tail, scratch);
  const out = {
    hat: lower.hat.map((lo, i): Interval => [lo, upper.hat[i]!]),
    at: lower.at.map((lo, i): Interval => [lo, upper.at[i]!]),
  };
  // Every reporter asks for the same configurations' intervals: their Monte Carlo is worth keeping.
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!);
  memo.set(key, out);
  return out;
}

// Which Beta each task's draws come from: the lower bound's Beta(c, n − c + 1) or the upper's Beta(c + 1, n − c).
const LOWER = 0;
const UPPER = 1;
/** 2^-54: for 0 <= x < it, 1 − x rounds to 1 (half the spacing of the doubles just below 1). */
const NEGLIGIBLE = 2 ** -54;
/** ks whose draws are summed at once: a curve's every draw at every k at once was tens of MB of fresh pages. */
const K_BLOCK = 32;

/** The working memory of one Monte Carlo, shared by its two bounds. */
class DrawScratch {
  /** Each draw's rate per task, at [d × tasks + t]; then each one's running P^k and (1 − P)^k. */
  readonly rates: Float64Array;
  readonly alls: Float64Array;
  readonly nones: Float64Array;
  /** A block of ks' sums over tasks, the j-th k's draws at [j × MONTE_CARLO_DRAWS, (j + 1) × MONTE_CARLO_DRAWS). */
  readonly hatSums: Float64Array;
  readonly atSums: Float64Array;

  constructor(tasks: number, ks: number) {
    this.rates = new Float64Array(MONTE_CARLO_DRAWS * tasks);
    this.alls = new Float64Array(MONTE_CARLO_DRAWS * tasks);
    this.nones = new Float64Array(MONTE_CARLO_DRAWS * tasks);
    this.hatSums = new Float64Array(Math.min(K_BLOCK, ks) * MONTE_CARLO_DRAWS);
    this.atSums = new Float64Array(Math.min(K_BLOCK, ks) * MONTE_CARLO_DRAWS);
  }
}

/**
 * The `q` quantile (nearest rank) over the draws of the mean over tasks of P^k and of
 * 1 − (1 − P)^k, at each k asked for, each task's P drawn from one bound's Beta.
 *
 * The report's bytes depend on every floating-point operation here, and each is the one the
 * plain form (every draw's sums at every k kept, each divided by the task count, sorted) does:
 * the rates drawn from `rng` draw by draw, task by task; each power the last one times the
 * gap's; each sum starting at 0 and adding the tasks in order. Only the order in which the
 * (draw, k) sums are filled differs, ks a block at a time, and the quantile is selected before
 * the division by the task count, which, monotone, picks the same value.
 */
function boundQuantiles(
  tasks: readonly TaskTally[],
  ks: readonly number[],
  bound: typeof LOWER | typeof UPPER,
  rng: Rng,
  q: number,
  scratch: DrawScratch,
): { hat: number[]; at: number[] } {
  const D = MONTE_CARLO_DRAWS;
  const nk = ks.length;
  const nt = tasks.length;
  const { rates, alls, nones, hatSums, atSums } = scratch;
  const as = new Float64Array(nt);
  const bs = new Float64Array(nt);
  for (let t = 0; t < nt; t++) {
    const { c, n } = tasks[t]!;
    as[t] = bound === LOWER ? c : c + 1;
    bs[t] = bound === LOWER ? n - c + 1 : n - c;
  }
  drawRates(rates, as, bs, rng);
  alls.fill(1);
  nones.fill(1);
  const gaps = new Float64Array(nk);
  let unitGaps = true;
  for (let i = 0, last = 0; i < nk; i++) {
    gaps[i] = ks[i]! - last;
    if (gaps[i] !== 1) unitGaps = false;
    last = ks[i]!;
  }
  // Each (draw, k) sum adds its tasks in order: the pairs' terms first, then the last task's.
  const paired = unitGaps ? nt - (nt % 2) : 0;
  const rank = Math.min(D - 1, Math.max(0, Math.ceil(q * D) - 1));
  const hat: number[] = [];
  const at: number[] = [];
  for (let k0 = 0; k0 < nk; k0 += K_BLOCK) {
    const width = Math.min(K_BLOCK, nk - k0);
    hatSums.fill(0);
    atSums.fill(0);
    if (paired > 0) addPairs(scratch, nt, paired, width);
    if (paired < nt) addEach(scratch, nt, paired, gaps, k0, width);
    for (let j = 0; j < width; j++) {
      hat.push(nthSmallest(hatSums, j * D, (j + 1) * D, rank) / nt);
      at.push(nthSmallest(atSums, j * D, (j + 1) * D, rank) / nt);
    }
  }
  return { hat, at };
}

/** Each draw's rate per task, draw by draw and task by task: the order `rng` is read in. */
function drawRates(rates: Float64Array, as: Float64Array, bs: Float64Array, rng: Rng): void {
  const nt = as.length;
  for (let d = 0, at = 0; d < MONTE_CARLO_DRAWS; d++)
    for (let t = 0; t < nt; t++, at++) rates[at] = drawRate(as[t]!, bs[t]!, rng);
}

/**
 * A curve at every k (gaps of 1): tasks [0, paired) two per pass over a block of `width` ks,
 * each sum adding the first task's term, then the second's.
 */
function addPairs(
  { rates, alls, nones, hatSums, atSums }: DrawScratch,
  nt: number,
  paired: number,
  width: number,
): void {
  const D = MONTE_CARLO_DRAWS;
  for (let d = 0; d < D; d++) {
    const row = d * nt;
    for (let t = row; t < row + paired; t += 2) {
      const p1 = rates[t]!;
      const p2 = rates[t + 1]!;
      const q1 = 1 - p1;
      const q2 = 1 - p2;
      let all1 = alls[t]!;
      let none1 = nones[t]!;
      let all2 = alls[t + 1]!;
      let none2 = nones[t + 1]!;
      for (let j = 0, at = d; j < width; j++, at += D) {
        all1 *= p1;
        all2 *= p2;
        // Below 2^-54, 1 − none rounds to exactly 1, and so does every later power: zero spares
        // the subnormal products on the way to it (each many times a normal one's cost).
        none1 = none1 < NEGLIGIBLE ? 0 : none1 * q1;
        none2 = none2 < NEGLIGIBLE ? 0 : none2 * q2;
        hatSums[at] = hatSums[at]! + all1 + all2;
        atSums[at] = atSums[at]! + (1 - none1) + (1 - none2);
      }
      alls[t] = all1;
      nones[t] = none1;
      alls[t + 1] = all2;
      nones[t + 1] = none2;
    }
  }
}

/** Tasks [from, nt) one at a time over the block of ks from `k0`, whatever their gaps. */
function addEach(
  { rates, alls, nones, hatSums, atSums }: DrawScratch,
  nt: number,
  from: number,
  gaps: Float64Array,
  k0: number,
  width: number,
): void {
  const D = MONTE_CARLO_DRAWS;
  for (let d = 0; d < D; d++) {
    for (let t = d * nt + from; t < (d + 1) * nt; t++) {
      const p = rates[t]!;
      let all = alls[t]!;
      let none = nones[t]!;
      for (let j = 0, at = d; j < width; j++, at += D) {
        const gap = gaps[k0 + j]!;
        all *= gap === 1 ? p : p ** gap;
        none *= gap === 1 ? 1 - p : (1 - p) ** gap;
        hatSums[at]! += all;
        atSums[at]! += 1 - none;
      }
      alls[t] = all;
      nones[t] = none;
    }
  }
}

/** One task's rate drawn from Beta(a, b); the shapes of a count of 0 make it certain. */
const drawRate = (a: number, b: number, rng: Rng): number => (a === 0 ? 0 : b === 0 ? 1 : sampleBeta(a, b, rng));

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
