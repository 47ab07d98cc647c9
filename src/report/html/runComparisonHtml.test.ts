import { describe, expect, it } from 'vitest';
import { sampleRun } from '../testing.js';
import { runComparisonHtmlReport } from './runComparisonHtml.js';

describe('runComparisonHtmlReport', () => {
  it("shows each configuration's pass^1 and pass^k with its 95% interval, and says what the brackets are", () => {
    const section = runComparisonHtmlReport(sampleRun()).sections[0]!;
    const rows = section.table!.rows.map((r) => r.cells.slice(0, 4));
    expect(rows).toEqual([
      ['naive', '2', '0.750 [0.34, 0.97]', '0.500 [0.03, 0.88]'],
      ['rulebook', '2', '1.000 [0.54, 1.00]', '1.000 [0.11, 1.00]'],
    ]);
    expect(section.description).toContain('[lower, upper]: 95% confidence interval');
  });
});
