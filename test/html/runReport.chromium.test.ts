import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, tempDir } from '../cli/faultline.js';
import { CHROMIUM_MISSING, chromiumRequired, hasChromium, openOffline, withChromium } from './chromium.js';

/** Screenshots stay in the repository's reports folder, for the CI artifact. */
const SCREENSHOTS = fileURLToPath(new URL('../../reports/screenshots/', import.meta.url));

describe.skipIf(!hasChromium && !chromiumRequired)('report.html in headless Chromium', () => {
  const opened = withChromium();
  let dir: { path: string; cleanup: () => Promise<void> };
  let file: string;

  beforeAll(async () => {
    dir = await tempDir('report-html');
    await mkdir(SCREENSHOTS, { recursive: true });
    // Two cells: the naive one fails (a partial write, then a retry under a new key), the rulebook one passes.
    const run = await faultline(
      [
        'run',
        'order-partial-write-idempotent',
        '--config',
        'naive',
        '--config',
        'rulebook',
        '--k',
        '4',
        '--html',
        '--out',
        'r',
        '--workers',
        '0',
      ],
      { cwd: dir.path },
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('r/report.html');
    file = join(dir.path, 'r', 'report.html');
  });

  afterAll(() => dir?.cleanup());

  it('has a Chromium to open the report in', () => {
    expect(hasChromium, CHROMIUM_MISSING).toBe(true);
  });

  it('opens from the file with no network request and no console error, failing cells first', async () => {
    const { page, errors, requests } = await openOffline(opened(), file, { width: 1400, height: 1000 });
    const rows = await page.locator('#grid tr.cell').allTextContents();
    await page.screenshot({ path: join(SCREENSHOTS, 'run-report.png'), fullPage: true });
    await page.close();
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    expect(rows).toHaveLength(2);
    // Each rate with its exact 95% interval: 0 of 4 is [0%, 60%], 4 of 4 is [40%, 100%] (and 0.025 for pass^4).
    expect(rows[0]).toMatch(/^✗ order-partial-write-idempotentnaive0\/40\.0% \[0%, 60%\]0\.0% \[0%, 13%\]4/);
    expect(rows[1]).toMatch(
      /^✓ order-partial-write-idempotentrulebook4\/4100\.0% \[40%, 100%\]100\.0% \[[23]%, 100%\]00/,
    );
  });

  it("shows a failing trial's fault in the wire lane and its duplicate effect in the services lane", async () => {
    const { page, errors } = await openOffline(opened(), file, { width: 1400, height: 1000 });
    const faults = await page.locator('table.events tr.ev.fault').allTextContents();
    const faultsInWire = await page.locator('table.events tr.ev.fault[data-lane="wire"]').count();
    const duplicates = await page.locator('table.events tr.ev.duplicate').allTextContents();
    const duplicatesInServices = await page.locator('table.events tr.ev.duplicate[data-lane="services"]').count();
    const ticks = await page.locator('.lanes .tick.fault, .lanes .tick.duplicate').count();
    await page.close();
    expect(errors).toEqual([]);
    expect(faults).toEqual([expect.stringMatching(/^\+0\.000sFAULT fault partial_write\(lostAs=timeout\) on req-1/)]);
    expect(faultsInWire).toBe(1);
    // The duplicate comes after the fault, at the retry's time on the virtual clock.
    expect(duplicates).toEqual([
      expect.stringMatching(/^\+11\.000sDUPLICATE effect order\.created key=ref-200 \(#1\)/),
    ]);
    expect(duplicatesInServices).toBe(1);
    // Both are marked on the lane overview too.
    expect(ticks).toBe(2);
  });

  it("highlights the events a verdict's evidence names when it is clicked", async () => {
    const { page, errors } = await openOffline(opened(), file, { width: 1400, height: 1000 });
    const highlighted = (): Promise<string[]> => page.locator('table.events tr.ev.hl').allTextContents();
    expect(await highlighted()).toEqual([]);
    await page.click('button.evidence[data-check="duplicates"]');
    const lit = await highlighted();
    await page.screenshot({ path: join(SCREENSHOTS, 'run-report-evidence.png'), fullPage: true });
    expect(lit.filter((t) => t.includes('effect order.created'))).toHaveLength(2);
    expect(lit.some((t) => t.includes('partial_write'))).toBe(true);
    // Every event of req-1 and req-2 (attempt, fault, delivery, effect, response, attempt end), and nothing else.
    expect(lit).toHaveLength(11);
    expect(lit.some((t) => t.includes('req-3'))).toBe(false);
    // Another verdict's evidence replaces the highlight: the goal-state diff's effect count names the two effects only.
    await page.click('button.evidence[data-check="goal-state"][data-evidence="1"]');
    expect((await highlighted()).map((t) => t.replace(/^\+[\d.]+s/, ''))).toEqual([
      'effect order.created key=ref-200 (#0)',
      'DUPLICATE effect order.created key=ref-200 (#1)',
    ]);
    const diff = await page.locator('table.diff tbody tr').allTextContents();
    expect(diff).toEqual(['orders.ord-1.status"paid""created"', 'effect order.created (times)12']);
    // The trial filter keeps the trials that failed a checker; the passing cell keeps none in full.
    await page.selectOption('#filter', 'duplicates');
    expect(await page.locator('button.trial').count()).toBe(4);
    await page.click('#grid tr.cell:nth-child(2)');
    expect(await page.locator('#trial-list').textContent()).toBe('no kept trial matches');
    await page.close();
    expect(errors).toEqual([]);
  });

  it("copies a trial's replay command to the clipboard", async () => {
    const { page, errors } = await openOffline(opened(), file, { width: 1400, height: 1000 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.click('#trial .replay button.copy');
    await page.locator('#trial .replay button.copy', { hasText: 'copied' }).waitFor({ timeout: 60_000 }); // a hang's bound only
    const copied = await page.evaluate(() =>
      (
        globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
      ).navigator.clipboard.readText(),
    );
    await page.close();
    expect(copied).toBe('faultline replay order-partial-write-idempotent --config naive --seed 1 --trial 0');
    expect(errors).toEqual([]);
  });
});
