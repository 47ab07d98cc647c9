/** One large run for bench/rss.ts: prints one JSON line with its trials, wall time, peak RSS and report size. */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wallMs } from '../src/core/clock/RealClock.js';
import { DEFAULT_GATES } from '../src/stats/gates.js';
import { loadConfigs, loadScenarios } from '../src/scenario/library.js';
import { runMatrix } from '../src/runner/run.js';
import { REPORTER_NAMES, writeReports } from '../src/report/write.js';

const wanted = Number(process.argv[2] ?? 10_000);
const scenarios = await loadScenarios();
const configs = await loadConfigs(['rulebook', 'naive', 'no-retry', 'full-jitter-budget']);
const k = Math.ceil(wanted / (scenarios.length * configs.length));
const t0 = wallMs();
const run = await runMatrix({
  scenarios,
  configs,
  k,
  seed: 1,
  workers: Number(process.env['WORKERS'] ?? 2),
  keepFailures: 5,
});
const out = await mkdtemp(join(tmpdir(), 'faultline-rss-'));
await writeReports(run, {
  outDir: out,
  reporters: REPORTER_NAMES.filter((r) => r !== 'console'),
  wallClock: { startedAt: new Date(0).toISOString(), finishedAt: new Date(0).toISOString(), durationMs: 0 },
  gates: DEFAULT_GATES,
});
const jsonMb = (await stat(join(out, 'faultline.json'))).size / 1e6;
await rm(out, { recursive: true, force: true });
const trials = run.cells.reduce((a, c) => a + c.metrics.trials, 0);
console.log(
  JSON.stringify({ trials, wallMs: Math.round(wallMs() - t0), rssMb: process.resourceUsage().maxRSS / 1024, jsonMb }),
);
