import { join } from 'node:path';
import type { RunResult } from '../../runner/run.js';
import { writeReportAtomic } from '../write.js';
import { renderHtmlReport } from './renderHtmlReport.js';
import { runComparisonHtmlReport } from './runComparisonHtml.js';

/** Writes `compare.html` for a run into `outDir` (atomically); returns its path. */
export async function writeCompareHtml(run: RunResult, outDir: string): Promise<string> {
  const path = join(outDir, 'compare.html');
  await writeReportAtomic(path, renderHtmlReport(runComparisonHtmlReport(run)));
  return path;
}
