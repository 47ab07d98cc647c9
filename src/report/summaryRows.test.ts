import { describe, expect, it } from 'vitest';
import { DEFAULT_GATES, evaluateGates } from '../stats/gates.js';
import type { RunResult } from '../runner/run.js';
import { mergeRuns } from '../runner/mergeRuns.js';
import { renderConsoleReport } from './console.js';
import { parseJsonReport, renderJsonReport, runFromJsonReport } from './json.js';
import { renderMarkdownReport } from './markdown.js';
import { summaryTables, timeBasis } from './summaryRows.js';
import { sampleRun } from './testing.js';

/** The sample run with the cells of `scenarios` on the wall clock, as a `command` agent's are. */
const onWallClock = (scenarios: readonly string[]): RunResult => {
  const run = sampleRun();
  return {
    ...run,
    cells: run.cells.map((c) => (scenarios.includes(c.scenario) ? { ...c, clock: 'real' as const } : c)),
  };
};

describe('the time column names its clock', () => {
  it('says virtual time for in-process agents, wall time when every cell ran on the wall clock', () => {
    const virtual = sampleRun();
    const wall = onWallClock(['order-partial-write', 'rate-limit-storm']);
    expect([timeBasis(virtual.cells), timeBasis(wall.cells)]).toEqual(['virtual', 'wall']);
    for (const [run, said, unsaid] of [
      [virtual, 'p95 virtual time', 'p95 wall time'],
      [wall, 'p95 wall time', 'p95 virtual time'],
    ] as const) {
      const gates = evaluateGates(run, DEFAULT_GATES);
      for (const text of [renderConsoleReport(run, { gates }), renderMarkdownReport(run, { gates })]) {
        expect(text).toContain(said);
        expect(text).not.toContain(unsaid);
      }
    }
  });

  it('in a run that mixes clocks, heads the column p95 time and says each cell clock beside its time', () => {
    const run = onWallClock(['rate-limit-storm']);
    expect(timeBasis(run.cells)).toBe('mixed');
    const console = renderConsoleReport(run, { gates: evaluateGates(run, DEFAULT_GATES) });
    expect(console).toMatch(/amplification +p95 time\n/);
    expect(console).not.toMatch(/virtual time|wall time/);
    const rows = summaryTables(run).flatMap((t) => t.rows.map((r) => [r.cells[0], r.cells.at(-1)]));
    expect(rows).toEqual([
      ['order-partial-write', '10.462s virtual'],
      ['rate-limit-storm', '10.462s wall'],
      ['all scenarios', ''],
      ['order-partial-write', '10.462s virtual'],
      ['rate-limit-storm', '10.462s wall'],
      ['all scenarios', ''],
    ]);
  });

  it('a cell on the wall clock stays one through faultline.json and a merge of shards', () => {
    const run: RunResult = { ...onWallClock(['rate-limit-storm']), shard: { index: 1, count: 1 } };
    const wallClock = {
      startedAt: '2026-01-05T09:00:00.000Z',
      finishedAt: '2026-01-05T09:00:02.000Z',
      durationMs: 2000,
    };
    const text = renderJsonReport(run, { gates: evaluateGates(run, DEFAULT_GATES), wallClock });
    const back = runFromJsonReport(parseJsonReport(text));
    const clocks = (r: RunResult): unknown[] => r.cells.map((c) => [c.scenario, c.config, c.clock]);
    const expected = [
      ['order-partial-write', 'naive', undefined],
      ['rate-limit-storm', 'naive', 'real'],
      ['order-partial-write', 'rulebook', undefined],
      ['rate-limit-storm', 'rulebook', 'real'],
    ];
    expect(clocks(back)).toEqual(expected);
    expect(clocks(mergeRuns([back], ['shard.json']))).toEqual(expected);
  });
});
