/** Adds `value` to the list `map` holds under `key`, starting the list if there is none: grouping in one pass. */
export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
