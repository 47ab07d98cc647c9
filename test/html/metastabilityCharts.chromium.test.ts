import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, tempDir } from '../cli/faultline.js';
import { CHROMIUM, CHROMIUM_MISSING, CHROMIUM_ARGS, chromiumRequired, hasChromium, openOffline } from './chromium.js';

/** What the page tells about one SVG chart. */
interface SvgCheck {
  readonly id: string;
  readonly width: number;
  readonly height: number;
  readonly lines: readonly {
    readonly label: string | undefined;
    readonly points: number;
    readonly length: number;
    readonly shown: number;
  }[];
  readonly legend: readonly (string | null)[];
}
/** The little of the DOM the check reads (the tests compile without the DOM's types). */
interface SvgNode {
  readonly id: string;
  readonly textContent: string | null;
  readonly dataset: Readonly<Record<string, string | undefined>>;
  readonly points: { readonly numberOfItems: number };
  getBoundingClientRect(): { readonly width: number; readonly height: number };
  getTotalLength(): number;
  querySelectorAll(selector: string): Iterable<SvgNode>;
}
interface SvgGlobals {
  readonly document: { querySelectorAll(selector: string): Iterable<SvgNode> };
}

const SCREENSHOTS = fileURLToPath(new URL('../../reports/screenshots/', import.meta.url));

/**
 * `faultline compare` on the metastability crowd, through the CLI: compare.html draws goodput
 * and offered load over time for each configuration as inline SVG (no script, no fetch), and
 * Chromium lays them out with every configuration's line in them.
 */
describe.skipIf(!hasChromium && !chromiumRequired)(
  'compare.html: goodput and offered load over time, as SVG, in headless Chromium',
  () => {
    let browser: Browser | undefined;
    let dir: Awaited<ReturnType<typeof tempDir>>;

    beforeAll(async () => {
      dir = await tempDir('metastable-html');
      await mkdir(SCREENSHOTS, { recursive: true });
      if (hasChromium) browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    });

    afterAll(async () => {
      await browser?.close();
      await dir?.cleanup();
    });

    it('draws a goodput chart and an offered-load chart with a line per configuration, offline, without a console error', async () => {
      expect(hasChromium, CHROMIUM_MISSING).toBe(true);
      const run = await faultline(
        [
          'compare',
          'metastable-jobs',
          '--k',
          '1',
          '--workers',
          '0',
          '--config',
          'metastable-naive',
          '--config',
          'retry-budget-10pct',
          '--out',
          'r',
        ],
        { cwd: dir.path },
      );
      expect(run.code, run.stderr).toBe(1);
      const { page, errors, requests } = await openOffline(browser!, join(dir.path, 'r', 'compare.html'));
      const charts = await page.evaluate((): SvgCheck[] => {
        const g = globalThis as unknown as SvgGlobals;
        return [...g.document.querySelectorAll('svg.svg-chart')].map((svg) => {
          const box = svg.getBoundingClientRect();
          return {
            id: svg.id,
            width: box.width,
            height: box.height,
            lines: [...svg.querySelectorAll('polyline.series')].map((l) => ({
              label: l.dataset['label'],
              points: l.points.numberOfItems,
              length: l.getTotalLength(),
              shown: l.getBoundingClientRect().width,
            })),
            legend: [...svg.querySelectorAll('text')].map((t) => t.textContent),
          };
        });
      });
      await page.screenshot({ path: join(SCREENSHOTS, 'metastable-compare.png'), fullPage: true });
      await page.close();
      expect(errors).toEqual([]);
      expect(requests).toEqual([]);
      expect(charts.map((c) => c.id)).toEqual(['crowd0-metastable-jobs-goodput', 'crowd0-metastable-jobs-offered']);
      for (const c of charts) {
        expect(c.width, c.id).toBeGreaterThan(500);
        expect(c.height, c.id).toBeGreaterThan(180);
        expect(c.lines.map((l) => l.label)).toEqual(['metastable-naive', 'retry-budget-10pct']);
        expect(c.legend).toEqual(
          expect.arrayContaining(['metastable-naive', 'retry-budget-10pct', 'virtual time (s)']),
        );
        for (const l of c.lines) {
          // A point per virtual second of the run (about a minute), drawn across the chart.
          expect(l.points, `${c.id} ${l.label}`).toBeGreaterThan(40);
          expect(l.length, `${c.id} ${l.label}`).toBeGreaterThan(400);
          expect(l.shown, `${c.id} ${l.label}`).toBeGreaterThan(400);
        }
      }
    });
  },
);
