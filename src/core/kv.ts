/** The key-value checkpoint store as an agent's code sees it (the world's `KvStore` is one). */
export interface CheckpointStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
  /** Whether the key was there. */
  delete(key: string): boolean;
}

/** The longest key the store takes, in characters: a name, not a payload. */
export const MAX_KV_KEY = 256;
/** The largest value, in characters: a checkpoint, not a database. */
export const MAX_KV_VALUE = 1_048_576;

/** Why a key or value is refused, or `undefined`: said the same way over HTTP and to `ctx.kv`. */
export function kvProblem(key: unknown, value?: unknown): string | undefined {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KV_KEY)
    return `expected a key of 1 to ${MAX_KV_KEY} characters, got ${typeof key === 'string' ? `${key.length} characters` : typeof key}`;
  if (value !== undefined && typeof value !== 'string')
    return `expected the value as text (JSON.stringify it), got ${value === null ? 'null' : typeof value}`;
  if (typeof value === 'string' && value.length > MAX_KV_VALUE)
    return `expected a value of at most ${MAX_KV_VALUE} characters, got ${value.length}`;
  return undefined;
}
