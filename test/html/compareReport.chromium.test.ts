import { readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, tempDir } from '../cli/faultline.js';
import { CHROMIUM, CHROMIUM_MISSING, CHROMIUM_ARGS, chromiumRequired, hasChromium, openOffline } from './chromium.js';

const SCREENSHOTS = fileURLToPath(new URL('../../reports/screenshots/', import.meta.url));

/** The built-in single-agent scenarios (`naive` fails most of them), so one row lists many failing scenarios. */
const SCENARIOS = readdirSync(fileURLToPath(new URL('../../scenarios/', import.meta.url)))
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => f.slice(0, -'.yaml'.length));

describe.skipIf(!hasChromium && !chromiumRequired)('compare.html in headless Chromium', () => {
  let browser: Browser | undefined;
  let dir: { path: string; cleanup: () => Promise<void> };
  let file: string;

  beforeAll(async () => {
    dir = await tempDir('compare-html');
    await mkdir(SCREENSHOTS, { recursive: true });
    const run = await faultline(
      ['compare', ...SCENARIOS, '--config', 'naive', '--config', 'rulebook', '--k', '1', '--out', 'c'],
      { cwd: dir.path },
    );
    expect(run.code, run.stderr).toBe(1);
    file = join(dir.path, 'c', 'compare.html');
    if (hasChromium) browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await dir?.cleanup();
  });

  it('the configuration table fits the page when a configuration fails many scenarios, and k = 1 shows pass^1 once', async () => {
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const { page, errors } = await openOffline(browser, file, { width: 1000, height: 900 });
    const failing = await page.locator('#run table tbody tr.flag td').last().textContent();
    const headers = await page.locator('#run table thead th').allTextContents();
    const table = await page.locator('#run table').boundingBox();
    const fits = await page.evaluate(() => {
      // No DOM types in the test build: the page's document, as far as this reads it.
      const root = (
        globalThis as unknown as { document: { documentElement: { clientWidth: number; scrollWidth: number } } }
      ).document.documentElement;
      return { viewport: root.clientWidth, scroll: root.scrollWidth };
    });
    await page.screenshot({ path: join(SCREENSHOTS, 'compare-many-failing.png'), fullPage: true });
    await page.close();
    expect(errors).toEqual([]);
    // Long enough that one line would run off a 1000-pixel page.
    expect((failing ?? '').split(', ').length).toBeGreaterThan(5);
    expect(table!.x + table!.width).toBeLessThanOrEqual(fits.viewport);
    expect(fits.scroll).toBeLessThanOrEqual(fits.viewport);
    expect(headers.filter((h) => h === 'pass^1')).toHaveLength(1);
  });
});
