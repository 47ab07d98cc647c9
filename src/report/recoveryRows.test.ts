import { describe, expect, it } from 'vitest';
import { painter } from './paint.js';
import { recoveryLines, renderConsoleReport } from './console.js';
import { renderMarkdownReport } from './markdown.js';
import { recoveryRows } from './recoveryRows.js';
import { makeRun, sampleRun } from './testing.js';
import { buildJsonReport } from './json.js';
import { runHtmlModel } from './html/runHtmlModel.js';

const run = makeRun({
  k: 4,
  cells: [
    { scenario: 'outage', config: 'rulebook', recovery: [1_000, 1_000, 1_200, 900] },
    { scenario: 'outage', config: 'naive', recovery: [500, null, null, 700] },
    { scenario: 'plain', config: 'rulebook' },
  ],
});

describe('recovery rows', () => {
  it('one row per cell that expects a recovery: recovered, rate with interval, time to recover, calls after', () => {
    expect(recoveryRows(run).map((r) => r.cells)).toEqual([
      ['outage', 'rulebook', '4/4', '1.000 [0.40, 1.00]', '1.000s', '1.200s', '1.200s', '0'],
      ['outage', 'naive', '2/4', '0.500 [0.07, 0.93]', '0.700s', 'never', 'never', '0'],
    ]);
    expect(recoveryRows(sampleRun())).toEqual([]);
  });

  it('the console shows them under their own heading, marks a cell where a trial did not recover, and says nothing without them', () => {
    const lines = recoveryLines(run, painter(false));
    expect(lines.slice(0, 5)).toEqual([
      '',
      'recovery after the heal',
      '    scenario  configuration  recovered                rate     p50     p95     max  calls after',
      '  ✓ outage    rulebook             4/4  1.000 [0.40, 1.00]  1.000s  1.200s  1.200s            0',
      '  ✗ outage    naive                2/4  0.500 [0.07, 0.93]  0.700s   never   never            0',
    ]);
    expect(renderConsoleReport(run, { gates: [], color: false })).toContain('recovery after the heal');
    expect(renderConsoleReport(sampleRun(), { gates: [], color: false })).not.toContain('recovery after the heal');
  });

  it('the markdown summary has the same table', () => {
    const md = renderMarkdownReport(run, { gates: [] });
    expect(md).toContain('### Recovery after the heal');
    expect(md).toContain('| ❌ outage | naive | 2/4 | 0.500 \\[0.07, 0.93\\] | 0.700s | never | never | 0 |');
    expect(renderMarkdownReport(sampleRun(), { gates: [] })).not.toContain('Recovery after the heal');
  });
});

describe('report.html', () => {
  it('gives each cell that expects a recovery its figures for the grid, and no other cell any', () => {
    const model = runHtmlModel(
      buildJsonReport(run, {
        gates: [],
        wallClock: { startedAt: '2026-01-05T09:00:00.000Z', finishedAt: '2026-01-05T09:00:01.000Z', durationMs: 1000 },
      }),
    );
    const byKey = new Map(model.cells.map((c) => [`${c.scenario}/${c.config}`, c.recovery]));
    expect(byKey.get('outage/naive')).toMatchObject({ recovered: 2, trials: 4, p50: 700, p95: null });
    expect(byKey.get('outage/naive')!.interval[0]).toBeCloseTo(0.0676, 3);
    expect(byKey.get('plain/rulebook')).toBeUndefined();
  });
});
