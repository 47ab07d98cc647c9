import type { WorldSnapshot } from '../world/snapshot.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A field that names an entity: `id`, `orderId`, `customer_id`, `clientReference`. */
const ID_FIELD = /(^id$|id$|_id$|reference$|ref$|key$)/i;

/**
 * Every entity id the world's state holds: each service's business keys, and the string values
 * of its id-like fields, in the order the snapshot lists them (canonical, so deterministic). What
 * a `wrong_target` mistake picks another entity from: another user's order is an id the world holds.
 */
export function worldEntities(snapshot: WorldSnapshot): string[] {
  const found = new Set<string>();
  const walk = (value: unknown, depth: number): void => {
    if (depth > 6) return;
    if (Array.isArray(value)) for (const v of value) walk(v, depth + 1);
    else if (isObject(value))
      for (const [k, v] of Object.entries(value)) {
        if (typeof v === 'string' && v !== '' && v.length <= 80 && ID_FIELD.test(k)) found.add(v);
        walk(v, depth + 1);
      }
  };
  for (const state of Object.values(snapshot.services)) {
    if (isObject(state)) for (const key of Object.keys(state)) if (key.length <= 80) found.add(key);
    walk(state, 0);
  }
  return [...found];
}
