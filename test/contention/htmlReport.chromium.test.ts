import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareContention } from '../../src/runner/contention/compareContention.js';
import { loadContentionConfigs, loadContentionScenarios } from '../../src/runner/contention/library.js';
import { loadConfigs, loadScenarios } from '../../src/runner/library.js';
import { runMatrix } from '../../src/runner/run.js';
import { contentionHtmlReport } from '../../src/report/html/contentionHtml.js';
import { renderHtmlReport } from '../../src/report/html/renderHtmlReport.js';
import { runComparisonHtmlReport } from '../../src/report/html/runComparisonHtml.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumRequired, hasChromium } from './chromium.js';

/** The test's output folder: screenshots stay there for the CI artifact. */
const SCREENSHOTS = fileURLToPath(new URL('../../reports/screenshots/', import.meta.url));

/** What the test reads in the page (the project's types have no DOM). */
interface CanvasLike {
  readonly id: string;
  readonly width: number;
  readonly height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { readonly data: Uint8ClampedArray } } | null;
}
interface PageGlobals {
  readonly document: { querySelectorAll(selector: string): Iterable<CanvasLike> };
  readonly Chart: { getChart(canvas: CanvasLike): { readonly data: { readonly datasets: readonly { readonly data: readonly unknown[] }[] } } | undefined };
  readonly __faultline?: { readonly ready: boolean; readonly charts: number };
}

interface CanvasCheck {
  readonly id: string;
  readonly chart: boolean;
  readonly points: number;
  readonly inked: number;
}

/**
 * Opens `file` offline in headless Chromium and reports every canvas: whether Chart.js drew a
 * chart on it, how many points its first dataset has, how many pixels are not blank.
 */
async function inspect(browser: Browser, file: string, screenshot: string) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    requests.push(url);
    return route.abort();
  });
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(() => (globalThis as unknown as PageGlobals).__faultline?.ready === true, undefined, { timeout: 10_000 });
  const drawn = await page.evaluate(() => (globalThis as unknown as PageGlobals).__faultline?.charts ?? 0);
  const canvases = await page.evaluate((): CanvasCheck[] => {
    const g = globalThis as unknown as PageGlobals;
    return [...g.document.querySelectorAll('canvas')].map((canvas) => {
      const chart = g.Chart.getChart(canvas);
      const pixels = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ?? new Uint8ClampedArray();
      let inked = 0;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) inked++;
      return { id: canvas.id, chart: chart !== undefined, points: chart?.data.datasets[0]?.data.length ?? 0, inked };
    });
  });
  await page.screenshot({ path: screenshot, fullPage: true });
  await page.close();
  return { errors, requests, drawn, canvases };
}

describe.skipIf(!hasChromium && !chromiumRequired)('compare.html in headless Chromium', () => {
  let browser: Browser | undefined;
  let dir: string;
  const opened = (): Browser => {
    if (!browser) throw new Error(`no browser: chromium is missing at ${CHROMIUM}`);
    return browser;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'faultline-html-'));
    await mkdir(SCREENSHOTS, { recursive: true });
    // Required and missing: the tests below fail (they are not skipped), starting with this one's message.
    if (!hasChromium) return;
    // launch() gives the browser a fresh temporary profile (its --user-data-dir) and removes it on close.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('has a Chromium to open the report in', () => {
    expect(hasChromium, `FAULTLINE_REQUIRE_CHROMIUM=1 but there is no chromium at ${CHROMIUM} (apt-get install -y chromium, or source scripts/ci-chromium.sh)`).toBe(true);
  });

  it('draws every chart of a contention comparison with data, offline, without a console error', async () => {
    const scenarios = await loadContentionScenarios(['optimistic-100', 'jobs-outage']);
    const configs = await loadContentionConfigs(['full-jitter', 'exponential-no-jitter', 'nested-three-layers', 'cockatiel-decorrelated', 'p-retry-randomized']);
    const comparisons = [];
    for (const s of scenarios) comparisons.push(await compareContention({ scenario: { ...s, agents: 30 }, configs, seed: 1 }));
    const file = join(dir, 'compare.html');
    await writeFile(file, renderHtmlReport(contentionHtmlReport(comparisons)));

    const seen = await inspect(opened(), file, join(SCREENSHOTS, 'contention-compare.png'));
    expect(seen.errors).toEqual([]);
    expect(seen.requests).toEqual([]);
    // Per scenario: 10 bar charts, the load over time and pass^k against k.
    expect(seen.canvases.length).toBe(2 * 12);
    expect(seen.drawn).toBe(seen.canvases.length);
    for (const c of seen.canvases) {
      expect(c, c.id).toMatchObject({ chart: true });
      expect(c.points, c.id).toBeGreaterThan(0);
      expect(c.inked, c.id).toBeGreaterThan(1_000);
    }
    expect(seen.canvases.filter((c) => c.id.endsWith('-load')).map((c) => c.id)).toEqual(['s0-optimistic-100-load', 's1-jobs-outage-load']);
  }, 30_000);

  it('draws the run comparison of faultline compare too', async () => {
    const run = await runMatrix({ scenarios: await loadScenarios(['read-timeout-retry', 'nested-retries-amplification']), configs: await loadConfigs(['rulebook', 'naive']), k: 2, seed: 1 });
    const file = join(dir, 'run-compare.html');
    await writeFile(file, renderHtmlReport(runComparisonHtmlReport(run)));
    const seen = await inspect(opened(), file, join(SCREENSHOTS, 'run-compare.png'));
    expect(seen.errors).toEqual([]);
    expect(seen.requests).toEqual([]);
    expect(seen.canvases.length).toBe(7);
    for (const c of seen.canvases) {
      expect(c.chart && c.points > 0, c.id).toBe(true);
      expect(c.inked, c.id).toBeGreaterThan(1_000);
    }
  }, 30_000);
});
