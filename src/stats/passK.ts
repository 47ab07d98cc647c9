/** Binomial coefficient C(n, k) as a float; exact for the small n of a run. */
export function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  const m = Math.min(k, n - k);
  let r = 1;
  for (let i = 1; i <= m; i++) r = (r * (n - m + i)) / i;
  return r;
}

/** Successes `c` out of `n` trials of one task. */
export interface TaskTally {
  readonly n: number;
  readonly c: number;
}

/**
 * pass^k (R30, τ-bench): the chance that all k independent runs of a task succeed,
 * estimated without bias as the mean over tasks of C(c, k) / C(n, k). Undefined for k > n.
 */
export function passHatK(tasks: readonly TaskTally[], k: number): number | undefined {
  if (tasks.length === 0 || k < 1 || tasks.some((t) => t.n < k)) return undefined;
  return mean(tasks.map((t) => choose(t.c, k) / choose(t.n, k)));
}

/** pass@k: the chance that at least one of k runs succeeds, 1 - C(n - c, k) / C(n, k). */
export function passAtK(tasks: readonly TaskTally[], k: number): number | undefined {
  if (tasks.length === 0 || k < 1 || tasks.some((t) => t.n < k)) return undefined;
  return mean(tasks.map((t) => 1 - choose(t.n - t.c, k) / choose(t.n, k)));
}

/** pass^k for k = 1..n (the smallest n among the tasks). */
export function passHatCurve(tasks: readonly TaskTally[]): number[] {
  const n = Math.min(...tasks.map((t) => t.n));
  const out: number[] = [];
  for (let k = 1; k <= n; k++) out.push(passHatK(tasks, k) ?? 0);
  return out;
}

/**
 * pass^k and pass@k for k = 1..n (the smallest n among the tasks) in one pass: C(c, k) / C(n, k)
 * is built as a running product, so it stays finite at any n (C(2000, 1000) alone overflows a float).
 */
export function passCurves(tasks: readonly TaskTally[]): { hat: number[]; at: number[] } {
  const n = tasks.length === 0 ? 0 : Math.min(...tasks.map((t) => t.n));
  const hat = new Array<number>(n).fill(0);
  const at = new Array<number>(n).fill(0);
  for (const t of tasks) {
    let allSucceed = 1;
    let noneSucceeds = 1;
    for (let k = 1; k <= n; k++) {
      allSucceed *= Math.max(0, t.c - k + 1) / (t.n - k + 1);
      noneSucceeds *= Math.max(0, t.n - t.c - k + 1) / (t.n - k + 1);
      hat[k - 1]! += allSucceed;
      at[k - 1]! += 1 - noneSucceeds;
    }
  }
  return { hat: hat.map((x) => x / tasks.length), at: at.map((x) => x / tasks.length) };
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
