/**
 * Finds Debian's chromium for the HTML report tests. Missing, they skip with one line saying how
 * to install it; under CI (or with `FAULTLINE_REQUIRE_CHROMIUM=1`) they fail instead.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { CHROMIUM_BROWSER, missingLine, required, skipWithout } from '../setup/prerequisites.js';

export const CHROMIUM = process.env['FAULTLINE_CHROMIUM'] ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const chromiumRequired = required(CHROMIUM_BROWSER);
/** Why a test that needs Chromium fails where it is required and missing, in one line. */
export const CHROMIUM_MISSING = missingLine(CHROMIUM_BROWSER, `no chromium at ${CHROMIUM}`);
skipWithout(CHROMIUM_BROWSER, hasChromium ? undefined : `no chromium at ${CHROMIUM}`);

/** The flags that run headless here: no sandbox (root in a container), no GPU, nothing fetched in the background. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A page opened offline: every request but the file itself refused and recorded, console errors collected. */
export interface OfflinePage {
  readonly page: Page;
  readonly errors: string[];
  readonly requests: string[];
}

interface FaultlineGlobals {
  readonly __faultline?: { readonly ready: boolean; readonly charts?: number };
}

/** Opens `file` offline and waits until the page says it is drawn (`__faultline.ready`). */
export async function openOffline(
  browser: Browser,
  file: string,
  viewport = { width: 1400, height: 900 },
): Promise<OfflinePage> {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  const self = pathToFileURL(file).href;
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (url === self) return route.continue();
    requests.push(url);
    return route.abort();
  });
  await page.goto(self);
  await page.waitForFunction(() => (globalThis as unknown as FaultlineGlobals).__faultline?.ready === true, undefined, {
    timeout: 60_000,
  }); // a hang's bound only: generous on a loaded machine
  return { page, errors, requests };
}

/** How many charts the page says it drew. */
export const chartsDrawn = (page: Page): Promise<number> =>
  page.evaluate(() => (globalThis as unknown as FaultlineGlobals).__faultline?.charts ?? 0);

/** One canvas as the test sees it: the Chart.js datasets on it (null: no chart), and how many pixels are not blank. */
export interface CanvasCheck {
  readonly id: string;
  readonly datasets: readonly { readonly label: string; readonly data: readonly unknown[] }[] | null;
  readonly inked: number;
}

/** What the test reads in the page (the project's types have no DOM). */
interface CanvasLike {
  readonly id: string;
  readonly width: number;
  readonly height: number;
  getContext(
    kind: '2d',
  ): { getImageData(x: number, y: number, w: number, h: number): { readonly data: Uint8ClampedArray } } | null;
}
interface ChartGlobals {
  readonly document: { querySelectorAll(selector: string): Iterable<CanvasLike> };
  readonly Chart: {
    getChart(canvas: CanvasLike):
      | {
          readonly data: {
            readonly datasets: readonly { readonly label: string; readonly data: readonly unknown[] }[];
          };
        }
      | undefined;
  };
}

/** Every canvas of the page: its chart's datasets (points as `{ x, y }`) and its inked pixels. */
export function canvasesOf(page: Page): Promise<CanvasCheck[]> {
  return page.evaluate((): CanvasCheck[] => {
    const g = globalThis as unknown as ChartGlobals;
    const point = (p: unknown): unknown =>
      typeof p === 'object' && p !== null && 'x' in p && 'y' in p ? { x: p.x, y: p.y } : p;
    return [...g.document.querySelectorAll('canvas')].map((canvas) => {
      const chart = g.Chart.getChart(canvas);
      const pixels =
        canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ?? new Uint8ClampedArray();
      let inked = 0;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) inked++;
      return {
        id: canvas.id,
        datasets: chart ? chart.data.datasets.map((d) => ({ label: d.label, data: d.data.map(point) })) : null,
        inked,
      };
    });
  });
}

/**
 * Chromium for the cases of one suite: started before them where there is one, closed after.
 * Returns the getter they open pages with, which fails with `CHROMIUM_MISSING` where it is not.
 */
export function withChromium(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (hasChromium) browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error(CHROMIUM_MISSING);
    return browser;
  };
}
