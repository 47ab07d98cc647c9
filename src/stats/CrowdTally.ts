import { quantileOf, type DurationCounts } from './quantile.js';
import { LOAD_BIN_MS, type CrowdStats } from './trialStats.js';

/** What the cells of a many-agent scenario add: the figures of the agents, over every trial (R10, R31). */
export interface CrowdMetrics {
  /** Agent runs: agents × trials. */
  readonly agents: number;
  /** Agents whose own end was an accepted outcome. */
  readonly succeeded: number;
  readonly successRate: number;
  /** Virtual time each agent took from its start to its end, in ms. */
  readonly completionMs: { readonly p50: number; readonly p95: number; readonly max: number };
  /** The same times, counted, as `[ms, agents]`: what a merge needs to get the quantiles exactly. */
  readonly completions: DurationCounts;
  /** Answers of 429 or 503, and the virtual ms calls spent from one to their next send, summed. */
  readonly throttled: { readonly responses: number; readonly ms: number };
  /** The most sends one logical operation caused, every retry layer included (R10). */
  readonly maxSendsPerOperation: number;
  /** Width of the load bins, in virtual ms. */
  readonly loadBinMs: number;
  /** Deliveries to the services per bin from the trial's start, summed over the trials. */
  readonly load: readonly number[];
  /** The agents' calls that succeeded, per bin of the same width, summed over the trials. */
  readonly goodput: readonly number[];
}

/** The crowd figures of a cell, one trial (or one shard's cell) at a time: sums, maxima and counts. */
export class CrowdTally {
  #agents = 0;
  #succeeded = 0;
  readonly #completions = new Map<number, number>();
  #throttledResponses = 0;
  #throttledMs = 0;
  #maxSends = 0;
  readonly #load: number[] = [];
  readonly #goodput: number[] = [];

  add(c: CrowdStats): void {
    this.#agents += c.agents;
    this.#succeeded += c.succeeded;
    for (const [ms, n] of c.completionMs) this.#completions.set(ms, (this.#completions.get(ms) ?? 0) + n);
    this.#throttledResponses += c.throttled.responses;
    this.#throttledMs += c.throttled.ms;
    this.#maxSends = Math.max(this.#maxSends, c.maxSendsPerOperation);
    addBins(this.#load, c.load);
    addBins(this.#goodput, c.goodput);
  }

  addMetrics(m: CrowdMetrics): void {
    this.add({
      agents: m.agents,
      succeeded: m.succeeded,
      completionMs: m.completions,
      throttled: m.throttled,
      maxSendsPerOperation: m.maxSendsPerOperation,
      load: m.load,
      goodput: m.goodput,
    });
  }

  metrics(): CrowdMetrics {
    const completions = [...this.#completions].sort((a, b) => a[0] - b[0]);
    return {
      agents: this.#agents,
      succeeded: this.#succeeded,
      successRate: this.#agents === 0 ? 0 : this.#succeeded / this.#agents,
      completionMs: {
        p50: quantileOf(completions, 0.5),
        p95: quantileOf(completions, 0.95),
        max: completions.at(-1)?.[0] ?? 0,
      },
      completions,
      throttled: { responses: this.#throttledResponses, ms: this.#throttledMs },
      maxSendsPerOperation: this.#maxSends,
      loadBinMs: LOAD_BIN_MS,
      load: Array.from(this.#load, (n) => n ?? 0),
      goodput: Array.from(this.#goodput, (n) => n ?? 0),
    };
  }
}

function addBins(into: number[], bins: readonly number[]): void {
  bins.forEach((n, i) => (into[i] = (into[i] ?? 0) + n));
}
