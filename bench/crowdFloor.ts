/**
 * The floor under a crowd trial: the 100-client optimistic-concurrency contention of
 * scenarios/crowds/backoff-jitter-occ.yaml (AWS's backoff-and-jitter experiment) as a plain
 * event loop over a binary heap, in TypeScript, with no faultline: no world, wire, promises,
 * history or checkers. Each attempt takes four N(10 ms, 2 ms) network legs (the request reads
 * the version, the answer goes back, the write comes in and commits only if the version still
 * holds, the answer goes back); a loser backs off as the occ-* configurations do (base 5 ms,
 * cap 2 s, retry n waits from min(cap, base·2^(n-1))) and tries again until it wins.
 * bench/crowds.ts prints faultline's time per delivery beside this one's.
 *   npm run bench crowdFloor          (TRIALS=… trials per strategy, default 200)
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

export type Strategy = 'none' | 'exponential' | 'full' | 'equal' | 'decorrelated';
export const STRATEGIES: readonly { readonly strategy: Strategy; readonly config: string }[] = [
  { strategy: 'none', config: 'occ-no-backoff' },
  { strategy: 'exponential', config: 'occ-exponential' },
  { strategy: 'full', config: 'occ-full-jitter' },
  { strategy: 'equal', config: 'occ-equal-jitter' },
  { strategy: 'decorrelated', config: 'occ-decorrelated-jitter' },
];

export const CLIENTS = 100;
const BASE_MS = 5;
const CAP_MS = 2_000;

/** mulberry32: a small seeded generator, so a floor trial is as repeatable as faultline's. */
export function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A network leg's duration: N(10, 2) by Box–Muller, redrawn below zero (as faultline's `normal` latency is). */
export function normalLeg(random: () => number): number {
  for (;;) {
    const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const ms = 10 + 2 * z;
    if (ms >= 0) return ms;
  }
}

/** The wait before retry number `retry` (1 for the first) under `strategy`, as the occ-* configurations wait; `previous` is the wait before it. */
export function backoffWait(strategy: Strategy, retry: number, previous: number, random: () => number): number {
  const d = Math.min(CAP_MS, BASE_MS * 2 ** (retry - 1));
  switch (strategy) {
    case 'none':
      return 0;
    case 'exponential':
      return Math.floor(d);
    case 'full':
      return Math.floor(random() * d);
    case 'equal':
      return Math.floor(d / 2 + random() * (d / 2));
    case 'decorrelated': {
      const from = Math.max(BASE_MS, previous);
      return Math.floor(Math.min(CAP_MS, BASE_MS + random() * (from * 3 - BASE_MS)));
    }
  }
}

const enum Step {
  Send,
  Read,
  Commit,
  Answer,
}

/**
 * A min-heap of events on (time, sequence), each carrying an item: parallel arrays, no object per
 * event. The floor's items are numbers (client and step); crowdAsync's are the sleeps to wake.
 */
export class EventHeap<T> {
  private t: number[] = [];
  private seq: number[] = [];
  private item: T[] = [];
  private n = 0;
  private next = 0;
  /** The time of the event `pop` took last. */
  at = 0;
  get size(): number {
    return this.n;
  }
  private less(i: number, j: number): boolean {
    return this.t[i]! < this.t[j]! || (this.t[i] === this.t[j] && this.seq[i]! < this.seq[j]!);
  }
  private swap(i: number, j: number): void {
    [this.t[i], this.t[j]] = [this.t[j]!, this.t[i]!];
    [this.seq[i], this.seq[j]] = [this.seq[j]!, this.seq[i]!];
    [this.item[i], this.item[j]] = [this.item[j]!, this.item[i]!];
  }
  push(t: number, item: T): void {
    let i = this.n++;
    this.t[i] = t;
    this.seq[i] = this.next++;
    this.item[i] = item;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }
  /** Takes the earliest event: its item, its time in `at`. */
  pop(): T {
    this.at = this.t[0]!;
    const first = this.item[0]!;
    const last = --this.n;
    if (last > 0) {
      this.swap(0, last);
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < last && this.less(l, m)) m = l;
        if (r < last && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return first;
  }
}

export interface FloorTrial {
  /** Writes delivered to the record: one per attempt. */
  readonly deliveries: number;
  readonly commits: number;
  /** When the last client's write committed and its answer arrived (virtual ms). */
  readonly lastDoneMs: number;
}

/** One trial of the contention: every client writes once, retrying each conflict until it wins. */
export function floorTrial(strategy: Strategy, seed: number): FloorTrial {
  const random = generator(seed);
  const leg = (): number => normalLeg(random);
  const retries = new Int32Array(CLIENTS);
  const previous = new Float64Array(CLIENTS);
  const readVersion = new Int32Array(CLIENTS);
  const conflicted = new Uint8Array(CLIENTS);
  // An event's item is its client and step in one number (client · 4 + step).
  const heap = new EventHeap<number>();
  const push = (t: number, c: number, step: Step): void => heap.push(t, c * 4 + step);
  for (let c = 0; c < CLIENTS; c++) push(0, c, Step.Send);
  let version = 0;
  let deliveries = 0;
  let commits = 0;
  let lastDoneMs = 0;
  while (heap.size > 0) {
    const item = heap.pop();
    const t = heap.at;
    const c = item >> 2;
    switch ((item & 3) as Step) {
      case Step.Send:
        push(t + leg(), c, Step.Read);
        break;
      case Step.Read:
        deliveries++;
        readVersion[c] = version;
        // The read's answer goes back and the write comes in: two legs.
        push(t + leg() + leg(), c, Step.Commit);
        break;
      case Step.Commit:
        if (version === readVersion[c]) {
          version++;
          commits++;
          conflicted[c] = 0;
        } else conflicted[c] = 1;
        push(t + leg(), c, Step.Answer);
        break;
      case Step.Answer: {
        if (conflicted[c] === 0) {
          lastDoneMs = Math.max(lastDoneMs, t);
          break;
        }
        const wait = backoffWait(strategy, ++retries[c]!, previous[c]!, random);
        previous[c] = wait;
        push(t + wait, c, Step.Send);
        break;
      }
    }
  }
  return { deliveries, commits, lastDoneMs };
}

/** CPU µs per trial and per delivery of `trials` floor trials (after a warm-up), with their mean deliveries. */
export function measureFloor(
  strategy: Strategy,
  trials: number,
): {
  readonly usPerTrial: number;
  readonly usPerDelivery: number;
  readonly deliveries: number;
  readonly lastDoneMs: number;
} {
  for (let i = 0; i < 20; i++) floorTrial(strategy, 1_000 + i);
  let deliveries = 0;
  let last = 0;
  const before = process.cpuUsage();
  for (let i = 0; i < trials; i++) {
    const t = floorTrial(strategy, i + 1);
    deliveries += t.deliveries;
    last += t.lastDoneMs;
  }
  const used = process.cpuUsage(before);
  const us = used.user + used.system;
  return {
    usPerTrial: us / trials,
    usPerDelivery: us / deliveries,
    deliveries: deliveries / trials,
    lastDoneMs: last / trials,
  };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const trials = Number(process.env['TRIALS'] ?? 200);
  console.log(
    `crowd floor: ${CLIENTS} clients, one record, N(10 ms, 2 ms) legs, ${trials} trials per strategy; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const { strategy, config } of STRATEGIES) {
    const m = measureFloor(strategy, trials);
    console.log(
      `  ${config.padEnd(24)} ${m.usPerTrial.toFixed(0).padStart(7)} µs CPU per trial  ${m.usPerDelivery.toFixed(2).padStart(6)} µs per delivery  ` +
        `${m.deliveries.toFixed(0).padStart(6)} deliveries  last done ${(m.lastDoneMs / 1000).toFixed(2)} s virtual`,
    );
  }
}
