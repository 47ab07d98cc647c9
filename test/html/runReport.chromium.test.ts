import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, tempDir } from '../cli/faultline.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumRequired, hasChromium } from '../contention/chromium.js';

/** Screenshots stay in the repository's reports folder, for the CI artifact. */
const SCREENSHOTS = fileURLToPath(new URL('../../reports/screenshots/', import.meta.url));

/** What the test reads in the page (the project's types have no DOM). */
interface ElementLike {
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
  readonly classList: { contains(name: string): boolean };
}
interface PageGlobals {
  readonly document: { querySelectorAll(selector: string): Iterable<ElementLike> };
  readonly __faultline?: { readonly ready: boolean; readonly cells: number };
}
const g = (): PageGlobals => globalThis as unknown as PageGlobals;

interface Opened {
  readonly page: Page;
  readonly errors: string[];
  readonly requests: string[];
}

/** Opens `file` with every request that is not the file itself refused and recorded, console errors collected. */
async function open(browser: Browser, file: string): Promise<Opened> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
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
  return { page, errors, requests };
}

describe.skipIf(!hasChromium && !chromiumRequired)('report.html in headless Chromium', () => {
  let browser: Browser | undefined;
  let dir: { path: string; cleanup: () => Promise<void> };
  let file: string;
  const opened = (): Browser => {
    if (!browser) throw new Error(`no browser: chromium is missing at ${CHROMIUM}`);
    return browser;
  };

  beforeAll(async () => {
    dir = await tempDir('report-html');
    await mkdir(SCREENSHOTS, { recursive: true });
    // Two cells: the naive one fails (a partial write, then a retry under a new key), the rulebook one passes.
    const run = await faultline(['run', 'order-partial-write-idempotent', '--config', 'naive', '--config', 'rulebook', '--k', '4', '--html', '--out', 'r', '--workers', '0'], { cwd: dir.path });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('r/report.html');
    file = join(dir.path, 'r', 'report.html');
    if (hasChromium) browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await dir?.cleanup();
  });

  it('has a Chromium to open the report in', () => {
    expect(hasChromium, `FAULTLINE_REQUIRE_CHROMIUM=1 but there is no chromium at ${CHROMIUM} (apt-get install -y chromium, or source scripts/ci-chromium.sh)`).toBe(true);
  });

  it('opens from the file with no network request and no console error, failing cells first', async () => {
    const { page, errors, requests } = await open(opened(), file);
    const rows = await page.evaluate(() => [...g().document.querySelectorAll('#grid tr.cell')].map((r) => r.textContent ?? ''));
    await page.screenshot({ path: join(SCREENSHOTS, 'run-report.png'), fullPage: true });
    await page.close();
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^✗ order-partial-write-idempotentnaive0\/40\.0%0\.0%4/);
    expect(rows[1]).toMatch(/^✓ order-partial-write-idempotentrulebook4\/4100\.0%100\.0%00/);
  }, 30_000);

  it("shows a failing trial's fault in the wire lane and its duplicate effect in the services lane", async () => {
    const { page, errors } = await open(opened(), file);
    const lanes = await page.evaluate(() =>
      [...g().document.querySelectorAll('table.events tr.ev')].map((r) => ({ lane: r.getAttribute('data-lane'), mark: r.classList.contains('fault') ? 'fault' : r.classList.contains('duplicate') ? 'duplicate' : '', text: r.textContent ?? '' })),
    );
    await page.close();
    expect(errors).toEqual([]);
    expect(lanes.filter((e) => e.mark === 'fault')).toEqual([{ lane: 'wire', mark: 'fault', text: expect.stringContaining('FAULT fault partial_write(lostAs=timeout) on req-1') as string }]);
    expect(lanes.filter((e) => e.mark === 'duplicate')).toEqual([{ lane: 'services', mark: 'duplicate', text: expect.stringContaining('DUPLICATE effect order.created key=ref-200 (#1)') as string }]);
    // The duplicate comes after the fault, at the retry's time on the virtual clock.
    const times = lanes.filter((e) => e.mark !== '').map((e) => e.text.slice(0, 8));
    expect(times).toEqual(['+0.000s', '+11.000s']);
  }, 30_000);

  it("highlights the events a verdict's evidence names when it is clicked", async () => {
    const { page, errors } = await open(opened(), file);
    const highlighted = (): Promise<string[]> => page.evaluate(() => [...g().document.querySelectorAll('table.events tr.ev.hl')].map((r) => r.textContent ?? ''));
    expect(await highlighted()).toEqual([]);
    await page.click('button.evidence[data-check="duplicates"]');
    const lit = await highlighted();
    await page.screenshot({ path: join(SCREENSHOTS, 'run-report-evidence.png'), fullPage: true });
    expect(lit.filter((t) => t.includes('effect order.created'))).toHaveLength(2);
    expect(lit.some((t) => t.includes('partial_write'))).toBe(true);
    expect(lit.every((t) => /req-[12]\b/.test(t))).toBe(true);
    // Another verdict's evidence replaces the highlight: the goal-state diff's effect count names the two effects only.
    await page.click('button.evidence[data-check="goal-state"][data-evidence="1"]');
    expect((await highlighted()).map((t) => t.replace(/^\+[\d.]+s/, ''))).toEqual(['effect order.created key=ref-200 (#0)', 'DUPLICATE effect order.created key=ref-200 (#1)']);
    const diff = await page.evaluate(() => [...g().document.querySelectorAll('table.diff tbody tr')].map((r) => r.textContent ?? ''));
    expect(diff).toEqual(['orders.ord-1.status"paid""created"', 'effect order.created (times)12']);
    // The trial filter keeps the trials that failed a checker; the passing cell keeps none in full.
    await page.selectOption('#filter', 'duplicates');
    expect(await page.locator('button.trial').count()).toBe(4);
    await page.click('#grid tr.cell:nth-child(2)');
    expect(await page.locator('#trial-list').textContent()).toBe('no kept trial matches');
    await page.close();
    expect(errors).toEqual([]);
  }, 30_000);
});
