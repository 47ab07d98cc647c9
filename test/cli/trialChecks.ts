import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One checker's verdict on a trial, as `faultline.json` carries it. */
export interface Check {
  readonly name: string;
  readonly verdict: { readonly valid: boolean | 'unknown'; readonly message?: string };
}

/** Every kept trial's checks, cell by cell, from `<project>/<out>/faultline.json`. */
export async function trialChecks(project: string, out: string): Promise<Check[][]> {
  const report = JSON.parse(await readFile(join(project, out, 'faultline.json'), 'utf8')) as {
    cells: { trials?: { checks: Check[] }[] }[];
  };
  return report.cells.flatMap((c) => (c.trials ?? []).map((t) => t.checks));
}
