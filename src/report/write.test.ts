import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_GATES } from '../stats/gates.js';
import { JsonReportSchema } from './json.js';
import { REPORTERS, REPORTER_NAMES, writeReportAtomic, writeReports } from './write.js';
import { sampleRun } from './testing.js';
import { parseXml } from './testing/parseXml.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faultline-report-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeReportAtomic', () => {
  it('writes the file, creating its folder, and leaves no temp file behind', async () => {
    const path = join(dir, 'nested', 'out.json');
    await writeReportAtomic(path, '{"a":1}\n');
    await writeReportAtomic(path, '{"a":2}\n');
    expect(await readFile(path, 'utf8')).toBe('{"a":2}\n');
    expect(await readdir(join(dir, 'nested'))).toEqual(['out.json']);
  });

  it('never shows a partial file: the old one stays whole until the new one is complete', async () => {
    const path = join(dir, 'out.txt');
    await writeFile(path, 'old contents');
    const big = 'x'.repeat(1 << 20);
    let seen: { target: string; temp: string } | undefined;
    const crash = writeReportAtomic(path, big, {
      beforeRename: async (temp) => {
        seen = { target: await readFile(path, 'utf8'), temp: await readFile(temp, 'utf8') };
        throw new Error('crash before rename');
      },
    });
    await expect(crash).rejects.toThrow('crash before rename');
    expect(seen?.target).toBe('old contents');
    expect(seen?.temp.length).toBe(big.length);
    expect(await readFile(path, 'utf8')).toBe('old contents');
    expect(await readdir(dir)).toEqual(['out.txt']);
  });

  it('removes the temp file when the rename fails', async () => {
    const path = join(dir, 'taken');
    await mkdir(join(path, 'inside'), { recursive: true });
    await expect(writeReportAtomic(path, 'data')).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['taken']);
  });
});

describe('writeReports', () => {
  const wallClock = { startedAt: '2026-01-05T09:00:00.000Z', finishedAt: '2026-01-05T09:00:02.000Z', durationMs: 2000 };

  it('writes faultline.json, junit.xml and summary.md and returns the console text and gate results', async () => {
    const outDir = join(dir, 'reports');
    const written = await writeReports(sampleRun(), {
      outDir,
      reporters: ['console', 'json', 'junit', 'markdown'],
      wallClock,
      gates: DEFAULT_GATES,
    });
    expect(written.paths).toEqual({
      json: join(outDir, 'faultline.json'),
      junit: join(outDir, 'junit.xml'),
      markdown: join(outDir, 'summary.md'),
    });
    expect((await readdir(outDir)).sort()).toEqual(['faultline.json', 'junit.xml', 'summary.md']);
    const json = JsonReportSchema.parse(JSON.parse(await readFile(join(outDir, 'faultline.json'), 'utf8')));
    expect(json.wallClock).toEqual(wallClock);
    expect(json.gates.results.map((g) => g.passed)).toEqual([false, false, false, true]);
    expect(parseXml(await readFile(join(outDir, 'junit.xml'), 'utf8')).name).toBe('testsuites');
    expect(await readFile(join(outDir, 'summary.md'), 'utf8')).toContain('## faultline: ❌ 3 of 4 gates failed');
    expect(written.console).toContain(
      'replay: faultline replay order-partial-write --config naive --seed 42 --trial 1',
    );
    expect(written.gates.map((g) => g.gate)).toEqual([
      'pass^k>=1',
      'duplicates==0',
      'budget_violations==0',
      'unexercised==0',
    ]);
  });

  it('writes only the reporters asked for', async () => {
    const written = await writeReports(sampleRun(), { outDir: dir, reporters: ['junit'], wallClock, gates: [] });
    expect(written).toEqual({ paths: { junit: join(dir, 'junit.xml') }, gates: [] });
    expect(await readdir(dir)).toEqual(['junit.xml']);
  });

  it('maps reporter names to files', () => {
    expect(
      Object.fromEntries(REPORTER_NAMES.map((n) => [n, (REPORTERS[n] as { file?: string }).file ?? null])),
    ).toEqual({
      console: null,
      dot: null,
      list: null,
      json: 'faultline.json',
      junit: 'junit.xml',
      markdown: 'summary.md',
      html: 'report.html',
      otlp: 'otel-traces.json',
    });
  });
});
