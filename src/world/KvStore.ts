import type { History } from '../core/index.js';
import type { CheckpointStore } from '../core/kv.js';

/**
 * The trial's key-value checkpoint store (issue 45): what an agent keeps outside its memory so
 * that a restart after `crash.agent` can resume. It lives in the world, so it survives the
 * agent's crash and starts empty in every trial; its writes are recorded (`kv` events) and its
 * contents are part of the final snapshot, but they are not tool effects: no checker counts
 * them as duplicates. Values are text (an agent stores JSON as text), so any language can read
 * back what another wrote.
 */
export class KvStore implements CheckpointStore {
  readonly #entries = new Map<string, string>();
  #history: History | undefined;

  /** Where the store's writes are recorded: the trial's history, once it exists. */
  attach(history: History): void {
    this.#history = history;
  }

  get(key: string): string | undefined {
    return this.#entries.get(key);
  }

  set(key: string, value: string): void {
    this.#entries.set(key, value);
    this.#history?.record({ type: 'kv', op: 'set', key, value });
  }

  /** Whether the key was there. */
  delete(key: string): boolean {
    const had = this.#entries.delete(key);
    this.#history?.record({ type: 'kv', op: 'delete', key });
    return had;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The entries in key order, for the snapshot. */
  entries(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const key of [...this.#entries.keys()].sort()) out[key] = this.#entries.get(key)!;
    return out;
  }
}
