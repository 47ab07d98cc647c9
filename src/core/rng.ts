import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';

type Generator = ReturnType<typeof xoroshiro128plus>;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a's state after `text`, from `h`. */
function fnv(h: number, text: string): number {
  let state = h;
  for (let i = 0; i < text.length; i++) {
    state ^= text.charCodeAt(i);
    state = Math.imul(state, FNV_PRIME);
  }
  return state;
}

/** 32-bit FNV-1a: stable across platforms and Node versions, unlike any built-in hash. */
export function hash32(text: string): number {
  return fnv(FNV_OFFSET, text) >>> 0;
}

/**
 * The one seed a trial gets: a function of the run seed, the scenario, the configuration
 * and the trial index, so a trial replays alone, in any order, on any worker.
 */
export function trialSeed(runSeed: number, scenario: string, config: string, trialIndex: number): number {
  return hash32(`${runSeed}\u0000${scenario}\u0000${config}\u0000${trialIndex}`);
}

/** A seeded random source (fast-check's pure-rand, xoroshiro128+), mutable for convenience. */
export class Rng {
  #gen: Generator;
  /** FNV-1a's state after the seed's decimal text and a NUL: what every fork's hash starts from. */
  #forkBase: number | undefined;

  constructor(readonly seed: number) {
    this.#gen = xoroshiro128plus(seed | 0);
  }

  /** A float in [0, 1). */
  next(): number {
    return uniformFloat64(this.#gen);
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return uniformInt(this.#gen, min, max);
  }

  /** A float in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return p >= 1 ? true : p <= 0 ? false : this.next() < p;
  }

  /** `n` lowercase hex characters. */
  hex(n: number): string {
    let out = '';
    while (out.length < n) out += (this.int(0, 0xffff) | 0x10000).toString(16).slice(1);
    return out.slice(0, n);
  }

  /** An independent stream named by `label`: drawing from it leaves this one untouched. */
  fork(label: string): Rng {
    // hash32(`${seed}\0${label}`), without building that string for each fork (a trial forks
    // about ten times): the hash of the seed and the NUL is kept, and the label hashed on from it.
    // XOR with the NUL's code (0) leaves the state as it is: only the multiply remains.
    this.#forkBase ??= Math.imul(fnv(FNV_OFFSET, String(this.seed)), FNV_PRIME);
    return new Rng(fnv(this.#forkBase, label) >>> 0);
  }
}
