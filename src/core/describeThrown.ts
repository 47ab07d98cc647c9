/**
 * One line for anything a user's code threw: an Error's `name: message`, else the value
 * itself (`throw undefined`, `throw 'boom'`, `throw { code: 1 }`). Never throws, even for a
 * value whose `toString` or getters do.
 */
export function describeThrown(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return thrown.message === '' ? thrown.name : `${thrown.name}: ${thrown.message}`;
    if (typeof thrown === 'string') return JSON.stringify(thrown);
    if (typeof thrown === 'object' && thrown !== null)
      return `a non-Error value (${JSON.stringify(thrown) ?? Object.prototype.toString.call(thrown)})`;
    return `a non-Error value (${String(thrown)})`;
  } catch {
    return 'a value that cannot be shown';
  }
}
