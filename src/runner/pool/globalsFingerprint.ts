/**
 * The globals a trial must not change for the next one: the shared prototypes (an enumerable
 * key on Object.prototype shows up in every `for…in`), the clocks and random sources the
 * harness and its reports rely on, and the set of global names. Taken once when a worker
 * starts; each check after a trial compares keys and, for data properties, values by identity
 * (reads only: getters are not called), so it costs microseconds, not a copy of every descriptor.
 */
const WATCHED: readonly [string, object][] = [
  ['Object', Object],
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['Promise', Promise],
  ['Promise.prototype', Promise.prototype],
  ['Date', Date],
  // What reports and the harness's own clocks call: a replaced `toISOString` would crash the CLI writing its reports.
  ['Date.prototype', Date.prototype],
  ['String.prototype', String.prototype],
  ['Number.prototype', Number.prototype],
  ['Map.prototype', Map.prototype],
  ['Set.prototype', Set.prototype],
  ['RegExp.prototype', RegExp.prototype],
  ['Math', Math],
  ['JSON', JSON],
];

/**
 * Globals whose values count; globalThis's other values do not (Node swaps some lazy getters for
 * values on first use), only its names: an enumerable one that was not there at all, as
 * `globalThis.x = …` adds. (Node's lazy web globals, `Headers` and the like, turn enumerable on
 * first use: they were there already. Reading every own key after each trial would cost more
 * than the trial's checkers: the global object is a dictionary behind interceptors.)
 */
const IDENTITIES = [
  'Date',
  'Math',
  'JSON',
  'Promise',
  'Object',
  'Array',
  'Function',
  'String',
  'Number',
  'Map',
  'Set',
  'Error',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'clearTimeout',
  'clearInterval',
  'clearImmediate',
  'queueMicrotask',
] as const;

interface Watched {
  readonly name: string;
  readonly target: object;
  readonly keys: readonly PropertyKey[];
  /** The value of each data property (undefined for accessors, whose getters are not called). */
  readonly values: readonly unknown[];
}

const sameKeys = (a: readonly PropertyKey[], b: readonly PropertyKey[]): boolean =>
  a.length === b.length && a.every((k, i) => k === b[i]);

export class GlobalsWatch {
  readonly #watched: readonly Watched[];
  readonly #globalNames: ReadonlySet<PropertyKey>;
  readonly #identities: readonly unknown[];

  constructor() {
    this.#watched = WATCHED.map(([name, target]) => {
      const keys = Reflect.ownKeys(target);
      const values = keys.map((k) => {
        const d = Reflect.getOwnPropertyDescriptor(target, k);
        return d !== undefined && 'value' in d ? d.value : undefined;
      });
      return { name, target, keys, values };
    });
    this.#globalNames = new Set(Reflect.ownKeys(globalThis));
    this.#identities = IDENTITIES.map((n) => (globalThis as Record<string, unknown>)[n]);
  }

  /** The first watched global that is not what it was, as `Date was replaced`; undefined when none changed. */
  changed(): string | undefined {
    const added = Object.keys(globalThis).filter((name) => !this.#globalNames.has(name));
    if (added.length > 0) return `globals were added (${added.join(', ')})`;
    for (let i = 0; i < IDENTITIES.length; i++)
      if ((globalThis as Record<string, unknown>)[IDENTITIES[i]!] !== this.#identities[i])
        return `${IDENTITIES[i]} was replaced`;
    for (const w of this.#watched) {
      const keys = Reflect.ownKeys(w.target);
      if (!sameKeys(keys, w.keys)) return `${w.name} changed (${describeDiff(w.keys, keys)})`;
      for (let i = 0; i < keys.length; i++) {
        const before = w.values[i];
        if (before !== undefined && (w.target as Record<PropertyKey, unknown>)[keys[i]!] !== before)
          return `${w.name}.${String(keys[i])} was replaced`;
      }
    }
    return undefined;
  }

  /**
   * Puts back what `changed` looks at, as far as it can: keys added to a watched object are
   * deleted, replaced data values and replaced globals are set back, added global names removed.
   * For a run in one process (`--workers 0`), so one agent's pollution does not reach the next trial.
   */
  restore(): void {
    for (const name of Object.keys(globalThis))
      if (!this.#globalNames.has(name)) Reflect.deleteProperty(globalThis, name);
    IDENTITIES.forEach((n, i) => {
      if ((globalThis as Record<string, unknown>)[n] !== this.#identities[i])
        Reflect.set(globalThis, n, this.#identities[i]);
    });
    for (const w of this.#watched) {
      for (const key of Reflect.ownKeys(w.target)) if (!w.keys.includes(key)) Reflect.deleteProperty(w.target, key);
      w.keys.forEach((key, i) => {
        const before = w.values[i];
        if (before !== undefined && (w.target as Record<PropertyKey, unknown>)[key] !== before)
          Reflect.defineProperty(w.target, key, { value: before });
      });
    }
  }
}

function describeDiff(before: readonly PropertyKey[], after: readonly PropertyKey[]): string {
  const added = after.filter((k) => !before.includes(k)).map(String);
  const removed = before.filter((k) => !after.includes(k)).map(String);
  return [...added.map((k) => `${k} added`), ...removed.map((k) => `${k} deleted`)].join(', ') || 'reordered';
}
