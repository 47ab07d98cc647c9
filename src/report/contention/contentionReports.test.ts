import { describe, expect, it } from 'vitest';
import { compareContention, type ContentionComparison } from '../../runner/contention/compareContention.js';
import { parseContentionConfig } from '../../runner/contention/ContentionConfig.js';
import { parseContentionScenario } from '../../runner/contention/ContentionScenario.js';
import { parseJsonReport, renderJsonReport } from '../json.js';
import { renderContentionConsole } from './contentionConsole.js';
import { renderContentionJunit } from './contentionJunit.js';
import { renderContentionMarkdown } from './contentionMarkdown.js';

/** 5 agents against a service whose one slot the first job holds for 10 minutes: every other request is refused. */
async function outage(): Promise<ContentionComparison> {
  const scenario = parseContentionScenario({
    name: 'tiny-outage',
    title: 'Tiny outage',
    agents: 5,
    service: { kind: 'jobs', serviceTimeMs: 600_000, capacity: { maxConcurrent: 1 } },
    budget: { maxDeliveriesPerCall: 10 },
  });
  const configs = [
    parseContentionConfig({ name: 'single', maxAttempts: 3, backoff: { kind: 'fixed', delayMs: 100 } }),
    parseContentionConfig({ name: 'nested', maxAttempts: 3, singleLayer: false, retryBudget: null, backoff: { kind: 'fixed', delayMs: 100 }, layers: { sdkRetries: 2, agentRepeats: 2 } }),
  ];
  return compareContention({ scenario, configs, seed: 1 });
}

describe('contention reports', () => {
  it('the console table has a row per configuration and flags the amplification', async () => {
    const c = await outage();
    const text = renderContentionConsole([c]);
    expect(text).toContain('faultline compare --contention  tiny-outage: 5 agents × 1 call on one jobs service, seed 1, 1 trial per configuration');
    expect(text).toMatch(/^configuration\s+kind\s+work\s+amp\s+max\/call\s+p50\s+p95\s+max\s+success\s+pass\^5\s+dup\s+budget\s+throttled$/m);
    expect(text).toMatch(/^single\s+runtime\s+\d+/m);
    expect(text).toMatch(/^nested\s+runtime\s+\d+\s+\d+\.\d\d\s+27\s/m);
    expect(text).toMatch(/⚠ nested: amplification: up to 27 deliveries for one logical call \(limit 10\), \d+ calls? over; retry at one layer only \(R10\)/);
    expect(text).not.toContain('⚠ single');
  });

  it('Markdown carries the same table, the flagged row marked', async () => {
    const md = renderContentionMarkdown([await outage()]);
    expect(md).toContain('### Tiny outage');
    expect(md).toContain('| configuration | kind | work | amp | max/call | p50 | p95 | max | success | pass^5 | dup | budget | throttled |');
    expect(md).toMatch(/^\| ⚠️ nested \| runtime \| \d+ \|/m);
    expect(md).toMatch(/^- ⚠️ nested: amplification: up to 27 deliveries/m);
  });

  it('the JSON report carries the comparison in its contention section and reads back', async () => {
    const c = await outage();
    const run = { seed: 1, k: 1, scenarios: [], configs: [], cells: [], byConfig: [], interrupted: false, keepFailures: null };
    const text = renderJsonReport(run, { gates: [], wallClock: { startedAt: '2025-01-01T00:00:00.000Z', finishedAt: '2025-01-01T00:00:01.000Z', durationMs: 1_000 }, contention: [c] });
    const report = parseJsonReport(text);
    const nested = report.contention?.[0]?.results.find((r) => r.config === 'nested');
    expect(nested?.metrics.maxDeliveriesPerCall).toBe(27);
    expect(nested?.metrics.flags[0]).toMatchObject({ kind: 'amplification', maxDeliveriesPerCall: 27, limit: 10 });
    expect(nested?.historyHashes[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(report.contention?.[0]?.loadBucketMs).toBe(c.loadBucketMs);
    // Without a contention section the report is what it was.
    expect(parseJsonReport(renderJsonReport(run, { gates: [], wallClock: { startedAt: '2025-01-01T00:00:00.000Z', finishedAt: '2025-01-01T00:00:01.000Z', durationMs: 1 } })).contention).toBeUndefined();
  });

  it('an interrupted comparison says so in Markdown, and JUnit skips what never ran', async () => {
    const c = await outage();
    expect(renderContentionMarkdown([c])).not.toContain('interrupted');
    expect(renderContentionMarkdown([c], { interrupted: true })).toContain('> ⚠️ The run was interrupted: the figures cover only the configurations that finished.');
    const xml = renderContentionJunit([c], { scenarios: ['tiny-outage', 'never-reached'], configs: ['single', 'nested'], seed: 1, trials: 1, interrupted: true });
    expect(xml).toContain('<testsuites name="faultline contention" tests="4" failures="0" errors="0" skipped="2">');
    expect(xml).toContain('<testsuite name="tiny-outage" tests="2" failures="0" errors="0" skipped="0">');
    expect(xml).toContain('<testcase classname="tiny-outage" name="nested"/>');
    expect(xml).toContain('<testsuite name="never-reached" tests="2" failures="0" errors="0" skipped="2">');
    expect(xml).toContain('<property name="interrupted" value="true"/>');
    expect(xml.match(/<skipped message="not run: the run was interrupted"\/>/g)).toHaveLength(2);
  });
});
