import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { faultline, start, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';
import { JSON_SCHEMA_VERSION } from '../../src/report/json.js';

describe('faultline view', () => {
  it('writes report.html beside the JSON report, prints its path, and serves it on 127.0.0.1 until stopped', async () => {
    const dir = await tempDir('view');
    try {
      // The report to view is made in process (./inProcess.ts); view and view --serve run the binary.
      const run = await inProcess(
        [
          'run',
          'order-partial-write-idempotent',
          '--config',
          'naive',
          '--k',
          '2',
          '--reporter',
          'json',
          '--out',
          'out',
          '--workers',
          '0',
        ],
        { cwd: dir.path },
      );
      expect(run.code, run.stderr).toBe(1);
      const view = await faultline(['view', 'out/faultline.json'], { cwd: dir.path });
      expect(view).toMatchObject({ code: 0, stdout: 'out/report.html\n' });
      const html = await readFile(join(dir.path, 'out', 'report.html'), 'utf8');
      expect(html).toContain('id="faultline-data"');

      const served = start(['view', 'out/faultline.json', '--serve'], { cwd: dir.path });
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        served.child.stdout!.on('data', (d: string) => {
          out += d;
          const m = /serving on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
          if (m) resolve(m[1]!);
        });
        void served.done.then((f) => reject(new Error(`view --serve ended: ${f.stderr}`)));
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await page.text()).toBe(html);
      expect((await fetch(`${url}../etc/passwd`)).status).toBe(404);
      served.child.kill('SIGINT');
      // Stopped by SIGINT, as any command: 130.
      expect((await served.done).code).toBe(130);
    } finally {
      await dir.cleanup();
    }
  });

  it('names the file and exits 2 when the report is missing or not a report', async () => {
    const dir = await tempDir('view-bad');
    try {
      const missing = await inProcess(['view', 'nowhere/faultline.json'], { cwd: dir.path });
      expect(missing).toMatchObject({ code: 2, stdout: '' });
      expect(missing.stderr).toContain('nowhere/faultline.json: no such file');
      await mkdir(join(dir.path, 'bad'));
      await writeFile(
        join(dir.path, 'bad', 'faultline.json'),
        JSON.stringify({ schemaVersion: JSON_SCHEMA_VERSION, tool: 'faultline' }),
      );
      const bad = await inProcess(['view', 'bad/faultline.json'], { cwd: dir.path });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('bad/faultline.json: not a faultline JSON report');
      expect(bad.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await dir.cleanup();
    }
  });
});
