import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SweepJsonSchema, type SweepJson } from '../../src/report/sweep/sweepJson.js';
import { faultline, tempDir } from '../cli/faultline.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumRequired, hasChromium } from './chromium.js';

/** Screenshots stay in the repository's reports folder, for the CI artifact. */
const SCREENSHOTS = fileURLToPath(new URL('../../reports/screenshots/', import.meta.url));

/** What the test reads in the page (the project's types have no DOM). */
interface CanvasLike {
  readonly id: string;
  readonly width: number;
  readonly height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { readonly data: Uint8ClampedArray } } | null;
}
interface Dataset {
  readonly label: string;
  readonly data: readonly { readonly x: number; readonly y: number }[];
}
interface PageGlobals {
  readonly document: { querySelectorAll(selector: string): Iterable<CanvasLike> };
  readonly Chart: { getChart(canvas: CanvasLike): { readonly data: { readonly datasets: readonly Dataset[] } } | undefined };
  readonly __faultline?: { readonly ready: boolean; readonly charts: number };
}
interface CanvasCheck {
  readonly id: string;
  readonly datasets: readonly Dataset[] | null;
  readonly inked: number;
}

describe.skipIf(!hasChromium && !chromiumRequired)('sweep.html in headless Chromium', () => {
  let browser: Browser | undefined;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let sweep: SweepJson;

  beforeAll(async () => {
    dir = await tempDir('sweep-html');
    await mkdir(SCREENSHOTS, { recursive: true });
    const r = await faultline(
      ['sweep', '--grep', 'read-timeout|deploy|email', '--config', 'naive', '--config', 'rulebook', '--k', '2', '--reporter', 'html', '--reporter', 'json', '--out', 'r', '--workers', '0'],
      { cwd: dir.path },
    );
    expect(r.code, r.stderr).toBe(0);
    sweep = SweepJsonSchema.parse(JSON.parse(await readFile(join(dir.path, 'r', 'sweep.json'), 'utf8')));
    if (hasChromium) browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await dir?.cleanup();
  });

  it('has a Chromium to open the report in', () => {
    expect(hasChromium, `FAULTLINE_REQUIRE_CHROMIUM=1 but there is no chromium at ${CHROMIUM} (apt-get install -y chromium, or source scripts/ci-chromium.sh)`).toBe(true);
  });

  it('draws pass^k against λ, a line per configuration with the figures of sweep.json, offline and without a console error', async () => {
    if (!browser) throw new Error(`no browser: chromium is missing at ${CHROMIUM}`);
    const file = join(dir.path, 'r', 'sweep.html');
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.route('**/*', async (route) => {
      const url = route.request().url();
      if (url === pathToFileURL(file).href) return route.continue();
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
        return { id: canvas.id, datasets: chart ? chart.data.datasets.map((d) => ({ label: d.label, data: d.data.map((p) => ({ x: p.x, y: p.y })) })) : null, inked };
      });
    });
    await page.screenshot({ path: join(SCREENSHOTS, 'sweep-report.png'), fullPage: true });
    await page.close();

    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    // Per series: pass^k and pass^1 against λ, then one chart per configuration of its scenarios.
    expect(canvases.map((c) => c.id)).toEqual([
      'sweep-0-rate-limit-passk',
      'sweep-0-rate-limit-pass1',
      'sweep-0-rate-limit-scenarios-0-naive',
      'sweep-0-rate-limit-scenarios-1-rulebook',
      'sweep-1-unavailable-passk',
      'sweep-1-unavailable-pass1',
      'sweep-1-unavailable-scenarios-0-naive',
      'sweep-1-unavailable-scenarios-1-rulebook',
    ]);
    expect(drawn).toBe(8);
    for (const c of canvases) {
      expect(c.datasets, c.id).not.toBeNull();
      expect(c.inked, c.id).toBeGreaterThan(1000);
    }
    for (const [i, series] of ['rate-limit', 'unavailable'].entries()) {
      const label = sweep.sweep.series[i]!.label;
      const passk = canvases.find((c) => c.id === `sweep-${i}-${series}-passk`)!;
      // Each configuration: its line, then its 95% band's lower and upper edges.
      expect(passk.datasets!.map((d) => d.label)).toEqual(['naive', 'naive band', 'naive band', 'rulebook', 'rulebook band', 'rulebook band']);
      for (const config of ['naive', 'rulebook']) {
        const figures = sweep.sweep.byConfig.find((c) => c.series === label && c.config === config)!.points;
        const [line, lower, upper] = passk.datasets!.filter((d) => d.label.startsWith(config));
        expect(line!.data).toEqual(figures.map((p) => ({ x: p.lambda, y: p.passK })));
        expect(lower!.data).toEqual(figures.map((p) => ({ x: p.lambda, y: p.passKInterval![0] })));
        expect(upper!.data).toEqual(figures.map((p) => ({ x: p.lambda, y: p.passKInterval![1] })));
      }
      // The scenarios' chart has a line per scenario the grep kept, and no band.
      const scenarios = canvases.find((c) => c.id === `sweep-${i}-${series}-scenarios-0-naive`)!;
      expect(scenarios.datasets!.map((d) => d.label)).toEqual(sweep.sweep.scenarios);
      for (const d of scenarios.datasets!) expect(d.data).toHaveLength(6);
    }
  }, 30_000);
});
