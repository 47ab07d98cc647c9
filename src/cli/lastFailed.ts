import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { parseJsonReport } from '../report/json.js';

/** The scenarios of the failing cells of the last run, read from its `faultline.json`. */
export interface LastFailed {
  /** The report read, as a path a user can type. */
  readonly report: string;
  /** Each failing scenario once, with the ref its cell's replay command names it by (a built-in name or a file), in report order. */
  readonly scenarios: readonly { readonly name: string; readonly ref: string }[];
  /** Cells in the report, for the message when none failed. */
  readonly cells: number;
}

/**
 * Reads `<outDir>/faultline.json`, the report the last `run` or `compare` wrote there. `outFrom`
 * says where the folder came from (`--out`, the config file's `outDir`, or the default), for a
 * refusal that names it. A cell fails when one of its trials failed (its `status`).
 */
export async function readLastFailed(outDir: string, outFrom: string): Promise<LastFailed> {
  const report = join(outDir, 'faultline.json');
  let text: string;
  try {
    text = await readFile(report, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' || code === 'ENOTDIR'
        ? 'no previous report'
        : `cannot read the previous report (${code ?? String(error)})`;
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `--last-failed: ${why} at ${report} (the out folder ${outDir}, from ${outFrom}); run once without ` +
        `--last-failed, or point --out at the folder of the last run`,
    );
  }
  const parsed = parseJsonReport(text, `--last-failed: ${report}`);
  const seen = new Set<string>();
  const scenarios: { name: string; ref: string }[] = [];
  for (const cell of parsed.cells) {
    if (cell.status !== 'failed' || seen.has(cell.scenario)) continue;
    seen.add(cell.scenario);
    scenarios.push({ name: cell.scenario, ref: cell.refs.scenario });
  }
  return { report, scenarios, cells: parsed.cells.length };
}
