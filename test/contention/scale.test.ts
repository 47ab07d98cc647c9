import { describe, expect, it } from 'vitest';
import { runContentionTrial } from '../../src/runner/contention/runContentionTrial.js';
import { contentionMetrics } from '../../src/runner/contention/contentionMetrics.js';
import { loadContentionConfigs } from '../../src/runner/contention/library.js';
import { parseContentionScenario } from '../../src/runner/contention/ContentionScenario.js';

describe('a thousand agents in one trial', () => {
  it('run concurrently on one virtual clock and all finish', async () => {
    // 1,000 writers spread over 50 records, 20 to a record.
    const s = parseContentionScenario({ name: 'optimistic-1000', agents: 1_000, service: { kind: 'optimistic', records: 50, transactionMs: 10 } });
    const [config] = await loadContentionConfigs(['decorrelated-jitter']);
    const trial = await runContentionTrial({ scenario: s, config: config!, seed: 1 });
    const m = contentionMetrics(s, [trial]);
    expect(trial.end).toBe('settled');
    expect([m.agents, m.logicalCalls, m.unfinished]).toEqual([1_000, 1_000, 0]);
    expect(m.successRate).toBeGreaterThan(0.9);
    // Concurrent, not one after another: all thousand were at the service in its first 10 ms.
    expect(trial.stats.load.counts[0]).toBeGreaterThanOrEqual(1_000);
  });
});
