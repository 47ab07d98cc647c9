/**
 * For tests of where promises settle in the microtask queue: starts `chains` reaction chains
 * beside `work` (chain c logs each of its `chains[c]` steps), waits for the work, lets every
 * queued reaction run, and gives back `log`, the order in which everything happened.
 */
export async function besideChains(
  log: string[],
  chains: readonly number[],
  work: readonly Promise<unknown>[],
): Promise<string[]> {
  chains.forEach((n, c) => {
    let p = Promise.resolve();
    for (let k = 0; k < n; k++) p = p.then(() => void log.push(`chain ${c} step ${k}`));
  });
  await Promise.all(work);
  for (let k = 0; k < 20; k++) await Promise.resolve();
  return log;
}
