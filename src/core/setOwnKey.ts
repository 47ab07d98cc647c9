/**
 * `out[key] = value`, except that an own "__proto__" key (JSON.parse makes them) stays a key
 * instead of becoming `out`'s prototype: what `Object.fromEntries` and `JSON.parse` do. For the
 * copying walks that build plain objects key by key (snapshots, states, step inputs).
 */
export function setOwnKey(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  else out[key] = value;
}
