import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SweepJsonSchema, type SweepJson } from '../../src/report/sweep/sweepJson.js';
import { faultline, tempDir } from '../cli/faultline.js';
import {
  canvasesOf,
  chartsDrawn,
  CHROMIUM_MISSING,
  chromiumRequired,
  hasChromium,
  openOffline,
  withChromium,
} from './chromium.js';

/** Screenshots stay in the repository's reports folder, for the CI artifact. */
const SCREENSHOTS = fileURLToPath(new URL('../../reports/screenshots/', import.meta.url));

describe.skipIf(!hasChromium && !chromiumRequired)('sweep.html in headless Chromium', () => {
  const opened = withChromium();
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let sweep: SweepJson;

  beforeAll(async () => {
    dir = await tempDir('sweep-html');
    await mkdir(SCREENSHOTS, { recursive: true });
    const r = await faultline(
      [
        'sweep',
        '--grep',
        'read-timeout|deploy|email',
        '--config',
        'naive',
        '--config',
        'rulebook',
        '--k',
        '2',
        '--reporter',
        'html',
        '--reporter',
        'json',
        '--out',
        'r',
        '--workers',
        '0',
      ],
      { cwd: dir.path },
    );
    expect(r.code, r.stderr).toBe(0);
    sweep = SweepJsonSchema.parse(JSON.parse(await readFile(join(dir.path, 'r', 'sweep.json'), 'utf8')));
  });

  afterAll(() => dir?.cleanup());

  it('has a Chromium to open the report in', () => {
    expect(hasChromium, CHROMIUM_MISSING).toBe(true);
  });

  it('draws pass^k against λ, a line per configuration with the figures of sweep.json, offline and without a console error', async () => {
    const file = join(dir.path, 'r', 'sweep.html');
    const { page, errors, requests } = await openOffline(opened(), file);
    const drawn = await chartsDrawn(page);
    const canvases = await canvasesOf(page);
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
      expect(passk.datasets!.map((d) => d.label)).toEqual([
        'naive',
        'naive band',
        'naive band',
        'rulebook',
        'rulebook band',
        'rulebook band',
      ]);
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
  });
});
