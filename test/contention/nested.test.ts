import { describe, expect, it } from 'vitest';
import { compareContention } from '../../src/runner/contention/compareContention.js';
import { loadContentionConfigs, loadContentionScenarios } from '../../src/runner/contention/library.js';
import { renderContentionConsole } from '../../src/report/contention/contentionConsole.js';
import { renderContentionMarkdown } from '../../src/report/contention/contentionMarkdown.js';
import { contentionHtmlReport } from '../../src/report/html/contentionHtml.js';

describe('retries nested in three layers of 3 attempts', () => {
  it('reach the service up to 27 times for one logical call, and every report flags it', async () => {
    const [scenario] = await loadContentionScenarios(['jobs-outage']);
    const configs = await loadContentionConfigs(['nested-three-layers', 'full-jitter']);
    const c = await compareContention({ scenario: scenario!, configs, seed: 1 });
    const [nested, single] = c.results;
    expect(nested!.metrics.maxDeliveriesPerCall).toBe(27);
    expect(nested!.metrics.flags).toContainEqual(expect.objectContaining({ kind: 'amplification', maxDeliveriesPerCall: 27, limit: 10 }));
    expect(nested!.metrics.budgetViolations).toBeGreaterThan(0);
    // One layer of 10 attempts stays within its own limit and is not flagged.
    expect(single!.metrics.maxDeliveriesPerCall).toBeLessThanOrEqual(10);
    expect(single!.metrics.flags.filter((f) => f.kind === 'amplification')).toEqual([]);

    const flag = /nested-three-layers: amplification: up to 27 deliveries for one logical call \(limit 10\)/;
    expect(renderContentionConsole([c])).toMatch(flag);
    expect(renderContentionMarkdown([c])).toMatch(flag);
    const html = contentionHtmlReport([c]);
    expect(html.sections[0]!.flags.join('\n')).toMatch(flag);
    expect(html.sections[0]!.table.rows.map((r) => r.flagged)).toEqual([true, false]);
    const amp = html.sections[0]!.charts.find((ch) => ch.id.endsWith('-amplification'));
    expect(amp?.kind === 'bar' && amp.flagged).toEqual([true, false]);
  });
});
