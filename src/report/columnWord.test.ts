import { describe, expect, it } from 'vitest';
import { columnWord, countColumns } from './columnWord.js';
import { renderConsoleReport } from './console.js';
import { renderMarkdownReport } from './markdown.js';
import { buildJsonReport } from './json.js';
import { runHtmlModel } from './html/runHtmlModel.js';
import { runComparisonHtmlReport } from './html/runComparisonHtml.js';
import { makeRun } from './testing.js';

const WALL = { startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:01.000Z', durationMs: 1000 };

// A run's second label is a configuration's name, or a matrix agent's: the tables must say which.
const agents = makeRun({
  k: 2,
  cells: [
    { scenario: 'orders', config: 'careful', agent: 'careful', recovery: [100, 200] },
    { scenario: 'orders', config: 'blind', agent: 'blind', recovery: [100, null] },
  ],
});
const mixed = makeRun({
  k: 2,
  cells: [
    { scenario: 'orders', config: 'careful/rulebook', agent: 'careful' },
    { scenario: 'orders', config: 'careful/naive', agent: 'careful' },
  ],
});
const configs = makeRun({ k: 2, cells: [{ scenario: 'orders', config: 'rulebook' }] });

describe('columnWord', () => {
  it('names the columns by what labels the cells', () => {
    expect(columnWord(agents.cells)).toBe('agent');
    expect(columnWord(mixed.cells)).toBe('agent or configuration');
    expect(columnWord(configs.cells)).toBe('configuration');
    expect(columnWord([])).toBe('configuration');
  });

  it('counts the columns in English', () => {
    expect([
      countColumns(1, 'agent'),
      countColumns(2, 'agent'),
      countColumns(3, 'configuration'),
      countColumns(2, 'agent or configuration'),
      countColumns(1, 'agent or configuration'),
    ]).toEqual(['1 agent', '2 agents', '3 configurations', '2 agents or configurations', '1 agent or configuration']);
  });

  it("puts the word in every header and headline of a matrix run: console, Markdown, report.html's grid, compare.html", () => {
    const text = renderConsoleReport(agents, { gates: [] });
    expect(text).toContain('1 scenario × 2 agents,');
    expect(text).toMatch(/\n {4}scenario +agent +rule +match, fault +fired in +firings\n/);
    expect(text).toMatch(/\n {4}scenario +agent +recovered +rate/);
    expect(text).not.toContain('configuration');
    const md = renderMarkdownReport(agents, { gates: [] });
    expect(md).toContain('| scenario | agent | rule | match, fault | fired in | firings |');
    expect(md).toContain('| scenario | agent | recovered |');
    expect(md).not.toContain('configuration');
    expect(runHtmlModel(buildJsonReport(agents, { wallClock: WALL, gates: [] })).run.columns).toBe('agent');
    expect(runHtmlModel(buildJsonReport(mixed, { wallClock: WALL, gates: [] })).run.columns).toBe(
      'agent or configuration',
    );
    const compare = runComparisonHtmlReport(agents);
    expect(compare.subtitle).toContain('1 scenario × 2 agents');
    expect(compare.sections[0]!.table!.header[0]).toBe('agent');
  });

  it('keeps "configuration" where the columns are configurations', () => {
    expect(renderConsoleReport(configs, { gates: [] })).toMatch(/\n {4}scenario +configuration +rule/);
    expect(renderConsoleReport(mixed, { gates: [] })).toMatch(/\n {4}scenario +agent or configuration +rule/);
    expect(renderConsoleReport(mixed, { gates: [] })).toContain('1 scenario × 2 agents or configurations,');
  });
});
