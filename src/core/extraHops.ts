/**
 * A test seam for the law "one order at one virtual instant" (docs/determinism.md): extra microtask hops at named
 * points of the execution layer and the wire, which must change no history byte. Off (`at` undefined) everywhere but
 * in that law's test; each point costs a property read when off.
 */
export const hopSeam: { at: ((point: string) => number) | undefined } = { at: undefined };

/** The hops the seam asks for at `point`: call only when `hopSeam.at` is set. */
export async function extraHops(point: string): Promise<void> {
  const n = hopSeam.at?.(point) ?? 0;
  for (let i = 0; i < n; i++) await Promise.resolve();
}
