/**
 * The globals a trial must not change for the next one: the shared prototypes (an enumerable
 * key on Object.prototype shows up in every `for…in`), the clocks and random sources the
 * harness and its reports rely on, and the set of global names. Values are compared by
 * identity; getters are not called.
 */
const WATCHED: readonly [string, object][] = [
  ['globalThis', globalThis],
  ['Object', Object],
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
  ['Number.prototype', Number.prototype],
  ['Promise', Promise],
  ['Promise.prototype', Promise.prototype],
  ['Map.prototype', Map.prototype],
  ['Set.prototype', Set.prototype],
  ['Date', Date],
  ['Date.prototype', Date.prototype],
  ['Math', Math],
  ['JSON', JSON],
];

/** Globals whose values count too (globalThis's own values otherwise do not, see below). */
const IDENTITIES = ['Date', 'Math', 'JSON', 'Promise', 'Object', 'Array', 'Function', 'String', 'Number', 'Map', 'Set', 'Error', 'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate', 'queueMicrotask'] as const;

export type GlobalsFingerprint = ReadonlyMap<string, unknown>;

const slot = (d: PropertyDescriptor): unknown => ('value' in d ? d.value : (d.get ?? d.set));

export function globalsFingerprint(): GlobalsFingerprint {
  const out = new Map<string, unknown>();
  for (const [name, target] of WATCHED) {
    const descriptors = Object.getOwnPropertyDescriptors(target);
    for (const key of Reflect.ownKeys(descriptors)) {
      // globalThis's own values include lazily created ones (Node swaps a getter for a value on first use): only its names count.
      out.set(`${name}.${String(key)}`, target === globalThis ? true : slot(descriptors[key as keyof typeof descriptors]!));
    }
  }
  for (const name of IDENTITIES) out.set(name, (globalThis as Record<string, unknown>)[name]);
  return out;
}

/** The first watched global that is not what it was, as `Date.now was replaced`; undefined when none changed. */
export function changedGlobal(before: GlobalsFingerprint): string | undefined {
  const now = globalsFingerprint();
  for (const [key, value] of now) {
    if (!before.has(key)) return `${key} was added`;
    if (before.get(key) !== value) return `${key} was replaced`;
  }
  for (const key of before.keys()) if (!now.has(key)) return `${key} was deleted`;
  return undefined;
}
