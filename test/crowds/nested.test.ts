import { describe, expect, it } from 'vitest';
import { renderConsoleReport } from '../../src/report/console.js';
import { renderMarkdownReport } from '../../src/report/markdown.js';
import { finishRun } from '../../src/runner/run.js';
import { crowdCell, crowdConfig, crowdScenario } from './crowd.js';

describe('retries nested in three layers of 3 attempts', () => {
  it('reach the service up to 27 times for one logical call, and the amplification checker and the reports say so', async () => {
    const nested = await crowdCell(await crowdScenario('jobs-outage'), await crowdConfig('nested-three-layers'));
    const single = await crowdCell(await crowdScenario('jobs-outage'), await crowdConfig('full-jitter'));
    expect(nested.metrics.crowd?.maxSendsPerOperation).toBe(27);
    expect(nested.metrics.checkFailures['amplification']).toBe(1);
    expect(nested.metrics.budgetViolations).toBe(0);
    // One layer of 10 attempts stays within its own limit and is not flagged.
    expect(single.metrics.crowd?.maxSendsPerOperation).toBeLessThanOrEqual(10);
    expect(single.metrics.checkFailures['amplification']).toBe(0);

    const run = finishRun({
      seed: 1,
      k: 1,
      scenarios: ['jobs-outage'],
      configs: ['nested-three-layers', 'full-jitter'],
      cells: [nested, single],
      interrupted: false,
      keepFailures: 0,
    });
    const flag = /one process_job operation reached the service 27 times \(limit 10\)/;
    expect(nested.trials[0]?.checks.find((c) => c.name === 'amplification')?.verdict).toMatchObject({
      valid: false,
      message: expect.stringMatching(flag),
    });
    // The crowd table: a row per cell, max/op 27, the amplified one marked.
    const text = renderConsoleReport(run, { gates: [] });
    expect(text).toMatch(
      /^ {4}scenario\s+configuration\s+agents\s+success\s+work\s+amp\s+max\/op\s+p50\s+p95\s+max\s+throttled$/m,
    );
    expect(text).toMatch(/^ {2}⚠ jobs-outage\s+nested-three-layers\s+100\s+0\.\d{3}\s+\d+\s+\d+\.\d\d\s+27\s/m);
    expect(text).toMatch(/^ {4}jobs-outage\s+full-jitter\s+100\s/m);
    const md = renderMarkdownReport(run, { gates: [] });
    expect(md).toContain(
      '| scenario | configuration | agents | success | work | amp | max/op | p50 | p95 | max | throttled |',
    );
    expect(md).toMatch(/^\| ⚠️ jobs-outage \| nested-three-layers \| 100 \| 0\.\d{3} \| \d+ \| \d+\.\d\d \| 27 \|/m);
  });
});
