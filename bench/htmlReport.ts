/**
 * report.html for a 30,000-trial run (the built-in library × 4 configurations × K trials,
 * --keep-failures at its default): how big the file is, how long rendering it takes, and how
 * long headless Chromium takes to open it from disk until the first trial is drawn
 * (`window.__faultline.ready`), best and median of several opens; then one click to another
 * cell. Prints numbers; asserts nothing. Needs Debian's chromium (source scripts/ci-chromium.sh).
 *   npm run bench htmlReport          (K=500: 15 × 4 × 500 = 30,000 trials)
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/html/chromium.js';
import { wallMs } from '../src/core/clock/RealClock.js';
import { DEFAULT_KEEP_FAILURES } from '../src/cli/commands/runFlags.js';
import { renderRunHtml } from '../src/report/html/renderRunHtml.js';
import { buildJsonReport } from '../src/report/json.js';
import { loadConfigs, loadScenarios } from '../src/scenario/library.js';
import { runMatrix } from '../src/runner/run.js';

const k = Number(process.env['K'] ?? 500);
const opens = Number(process.env['OPENS'] ?? 5);
const scenarios = await loadScenarios();
const configs = await loadConfigs(['rulebook', 'naive', 'no-retry', 'full-jitter-budget']);

let t0 = wallMs();
const run = await runMatrix({ scenarios, configs, k, seed: 1, workers: 2, keepFailures: DEFAULT_KEEP_FAILURES });
const trials = run.cells.reduce((a, c) => a + c.metrics.trials, 0);
console.log(`run: ${trials} trials (${run.cells.length} cells, k ${k}) in ${(wallMs() - t0).toFixed(0)} ms`);

t0 = wallMs();
const report = buildJsonReport(run, {
  gates: [],
  wallClock: { startedAt: '2026-01-05T09:00:00.000Z', finishedAt: '2026-01-05T09:00:01.000Z', durationMs: 1000 },
});
const html = renderRunHtml(report);
const renderMs = wallMs() - t0;
const kept = report.cells.reduce((a, c) => a + c.trials.length, 0);
const events = report.cells.reduce((a, c) => a + c.trials.reduce((b, t) => b + (t.history?.length ?? 0), 0), 0);
console.log(
  `report.html: ${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB, ${kept} trials kept in full (${events} events), ${report.run.failedTrials} failed trials; rendered in ${renderMs.toFixed(0)} ms`,
);

const dir = await mkdtemp(join(tmpdir(), 'faultline-bench-html-'));
const file = join(dir, 'report.html');
await writeFile(file, html);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
try {
  const loads: number[] = [];
  let clickMs = 0;
  for (let i = 0; i < opens; i++) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const start = wallMs();
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction(
      () => (globalThis as unknown as { __faultline?: { ready: boolean } }).__faultline?.ready === true,
      undefined,
      { timeout: 60_000 },
    );
    loads.push(wallMs() - start);
    if (i === opens - 1) {
      const c0 = wallMs();
      await page.click('#grid tr.cell:nth-child(2)');
      await page.locator('#trial h2').waitFor();
      clickMs = wallMs() - c0;
    }
    await page.close();
  }
  loads.sort((a, b) => a - b);
  console.log(
    `chromium, open from file to first trial drawn: best ${loads[0]!.toFixed(0)} ms, median ${loads[Math.floor(loads.length / 2)]!.toFixed(0)} ms, worst ${loads.at(-1)!.toFixed(0)} ms (${opens} opens)`,
  );
  console.log(`chromium, click another cell until its first trial is drawn: ${clickMs.toFixed(0)} ms`);
  console.log(
    `load average: ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await browser.close();
  await rm(dir, { recursive: true, force: true });
}
