/**
 * Where `value` stops being JSON data, as a path and what was found there (`state.tickets.t1:
 * a Map`), or `undefined` when it is plain JSON all the way down. A service's state must be
 * JSON so that the final snapshot, its hash and `goal.state` mean the same thing on every run.
 */
export function nonJsonAt(value: unknown, path = '', seen = new Set<object>()): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number')
    return Number.isFinite(value) ? undefined : `${at(path)}${String(value)} (JSON has no such number)`;
  if (value === undefined) return `${at(path)}undefined (use null, or leave the key out)`;
  if (typeof value !== 'object') return `${at(path)}a ${typeof value}`;
  if (seen.has(value)) return `${at(path)}a circular reference`;
  const proto = Object.getPrototypeOf(value) as unknown;
  const array = Array.isArray(value);
  if (!array && proto !== Object.prototype && proto !== null) return `${at(path)}a ${kindOf(value)}`;
  seen.add(value);
  try {
    if (array) {
      for (let i = 0; i < value.length; i++) {
        const found = nonJsonAt(value[i], `${path}[${i}]`, seen);
        if (found) return found;
      }
      return undefined;
    }
    for (const [k, v] of Object.entries(value)) {
      const found = nonJsonAt(v, path === '' ? k : `${path}.${k}`, seen);
      if (found) return found;
    }
    return undefined;
  } finally {
    seen.delete(value);
  }
}

const at = (path: string): string => (path === '' ? '' : `${path}: `);

function kindOf(value: object): string {
  const name = (value.constructor as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' && name !== '' ? name : 'non-plain object';
}

/** A deep copy of JSON data: each trial starts from the declared state, untouched by the last. */
export const cloneJson = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));
