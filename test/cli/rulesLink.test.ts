import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => (dir = await tempDir('rules')));
afterAll(() => dir.cleanup());

/** The `rules: …` line a failure ends with, and the page and anchor it points at. */
function rulesLine(stdout: string): { rules: string[]; doc: string; anchor: string } {
  const m = /^\s*rules: ((?:R\d+ ?)+) \(explained in (.+)#(r\d+)\)$/m.exec(stdout);
  if (m === null) throw new Error(`no rules line in:\n${stdout}`);
  return { rules: m[1]!.trim().split(' '), doc: m[2]!, anchor: m[3]! };
}

describe('rules named in a failure link to the rules page', () => {
  it('run: the footer names the rules of the shown verdicts and an anchor that exists', async () => {
    const r = await faultline(['run', 'payment-quota-exceeded', '--config', 'naive', '--k', '1', '--out', 'out'], {
      cwd: dir.path,
    });
    expect(r.code).toBe(1);
    const line = rulesLine(r.stdout);
    expect(line.rules).toEqual(['R5', 'R23']);
    expect(line.anchor).toBe('r5');
    expect(readFileSync(line.doc, 'utf8')).toContain('<a id="r5"></a>');
  });

  it('replay: the verdicts are followed by the same kind of line', async () => {
    const r = await inProcess(['replay', 'payment-quota-exceeded', '--config', 'naive'], { cwd: dir.path });
    expect(r.code).toBe(1);
    expect(rulesLine(r.stdout).rules).toContain('R5');
  });

  it('a passing run names no rules', async () => {
    const r = await inProcess(['run', 'payment-quota-exceeded', '--k', '1', '--out', 'out'], { cwd: dir.path });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/^\s*rules: /m);
  });
});
