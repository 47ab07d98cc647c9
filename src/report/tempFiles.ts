import { rmSync } from 'node:fs';

/** Temp files of atomic writes in progress: a forced exit removes them, so no `.tmp` is left behind. */
const inProgress = new Set<string>();

export const trackTempFile = (path: string): void => void inProgress.add(path);
export const untrackTempFile = (path: string): void => void inProgress.delete(path);

/**
 * Removes every temp file still being written, synchronously: called right before the
 * process leaves at once (a second Ctrl-C), when no `finally` will run any more.
 */
export function removeTempFiles(): void {
  for (const path of inProgress) rmSync(path, { force: true });
  inProgress.clear();
}
