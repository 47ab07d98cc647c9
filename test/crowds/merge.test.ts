import { describe, expect, it } from 'vitest';
import { parseJsonReport, renderJsonReport, runFromJsonReport } from '../../src/report/json.js';
import { loadConfigs, loadScenarios } from '../../src/scenario/library.js';
import { mergeRuns } from '../../src/runner/mergeRuns.js';
import { runMatrix } from '../../src/runner/run.js';

const wallClock = { startedAt: '2025-01-01T00:00:00.000Z', finishedAt: '2025-01-01T00:00:01.000Z', durationMs: 1_000 };

describe('crowd figures through the JSON report and faultline merge', () => {
  it('two shards of a many-agent run merge into the figures of the whole run', async () => {
    const [scenario] = await loadScenarios(['jobs-outage']);
    const small = { ...scenario!, agents: 20 };
    const configs = await loadConfigs(['full-jitter', 'no-backoff']);
    const options = { scenarios: [small], configs, k: 3, seed: 7, keepFailures: 1 };
    const whole = await runMatrix(options);
    const viaJson = async (index: number) =>
      runFromJsonReport(
        parseJsonReport(
          renderJsonReport(await runMatrix({ ...options, shard: { index, count: 2 } }), { gates: [], wallClock }),
        ),
      );
    const merged = mergeRuns([await viaJson(1), await viaJson(2)], ['a.json', 'b.json']);
    expect(whole.cells[0]!.metrics.crowd).toMatchObject({ agents: 60, loadBinMs: 100 });
    expect(merged.cells.map((c) => c.metrics.crowd)).toEqual(whole.cells.map((c) => c.metrics.crowd));
    expect(merged.cells.map((c) => c.metrics.deliveries)).toEqual(whole.cells.map((c) => c.metrics.deliveries));
  });
});
