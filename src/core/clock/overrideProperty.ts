/**
 * Makes `value` an own property `key` of `target` until the returned function is called,
 * which puts back exactly what was there: the old own descriptor, or no own property at
 * all when `key` was inherited (as `performance.now` is). A second call does nothing.
 */
export function overrideProperty(target: object, key: PropertyKey, value: unknown): () => void {
  const saved = Object.getOwnPropertyDescriptor(target, key);
  Object.defineProperty(target, key, { configurable: true, writable: true, value });
  let installed = true;
  return () => {
    if (!installed) return;
    installed = false;
    if (saved) Object.defineProperty(target, key, saved);
    else Reflect.deleteProperty(target, key);
  };
}
