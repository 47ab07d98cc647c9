import { kvProblem, type CheckpointStore } from '../core/kv.js';

/**
 * The trial's key-value checkpoint store as `ctx.kv`: text values under text keys, kept by
 * faultline outside the agent's memory, so that a restart after the scenario's `crash.agent`
 * finds what the start before it saved. It starts empty in every trial; its writes are recorded
 * but are not tool effects. Command agents reach the same store over HTTP (`FAULTLINE_KV_URL`).
 */
export interface AgentKv {
  /** The value saved under `key`, or `undefined`. */
  get(key: string): Promise<string | undefined>;
  /** Saves `value` (text: `JSON.stringify` an object) under `key`, 1 to 256 characters. */
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Where one start of an agent stands: which start it is (0: the first) and whether it still runs. */
export interface AgentStart {
  /** 0 for the first start; 1 for the start after `crash.agent` killed it. */
  readonly restart: number;
  /** False once the start was abandoned: whatever it still does never reaches the world or the history. */
  alive(): boolean;
}

export const FIRST_START: AgentStart = { restart: 0, alive: () => true };

/** A promise that never settles: what an abandoned start's every request gets. */
export const never = <T>(): Promise<T> => new Promise<T>(() => {});

/** `ctx.kv` over `store` for one start: an abandoned start's reads and writes never happen. */
export function agentKv(store: CheckpointStore, start: AgentStart): AgentKv {
  const checked = <T>(what: string, key: unknown, value: unknown, act: () => T): Promise<T> => {
    if (!start.alive()) return never();
    const bad = kvProblem(key, value);
    return bad === undefined ? Promise.resolve(act()) : Promise.reject(new TypeError(`ctx.kv.${what}: ${bad}`));
  };
  return Object.freeze({
    get: (key: string) => checked('get(key)', key, undefined, () => store.get(key)),
    set: (key: string, value: string) =>
      checked('set(key, value)', key, value ?? null, () => {
        store.set(key, value);
      }),
    delete: (key: string) =>
      checked('delete(key)', key, undefined, () => {
        store.delete(key);
      }),
  });
}
