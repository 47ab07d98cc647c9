import { describe, expect, it } from 'vitest';
import { makeTrial } from '../report/testing.js';
import { barLine, cellLine, createProgress } from './progress.js';

const trial = (config: string, scenario: string, trialIndex: number, failed = false) =>
  makeTrial({
    scenario,
    config,
    runSeed: 1,
    trialIndex,
    failures: failed ? [{ check: 'duplicates', message: 'twice' }] : [],
  });

function sink(columns?: number): { stream: { write(s: string): boolean; columns?: number }; text: () => string } {
  const parts: string[] = [];
  return {
    stream: { write: (s) => (parts.push(s), true), ...(columns !== undefined && { columns }) },
    text: () => parts.join(''),
  };
}

describe('progress', () => {
  it('in dots mode, writes a mark per trial, 80 to a line, and ends the last line', () => {
    const { stream, text } = sink();
    const p = createProgress({ stream, mode: 'dots', k: 100 });
    for (let i = 0; i < 83; i++) p.onTrial(trial('naive', 'a', i, i % 40 === 0), i + 1, 83);
    p.finish();
    const lines = text().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(`F${'·'.repeat(39)}F${'·'.repeat(39)}`);
    expect(lines[1]).toBe(`F··`);
    expect(lines[2]).toBe('');
  });

  it('only failing: no line for a cell that passed, no mark for a trial that passed, and no bar', () => {
    const lines = sink();
    const l = createProgress({ stream: lines.stream, mode: 'lines', k: 1, onlyFailing: true });
    l.onTrial(trial('naive', 'a', 0), 1, 2);
    l.onTrial(trial('naive', 'b', 0, true), 2, 2);
    expect(lines.text()).toBe('✗ naive × b: 0/1 passed (duplicates) [2/2 trials]\n');
    const dots = sink();
    const d = createProgress({ stream: dots.stream, mode: 'dots', k: 1, onlyFailing: true });
    [false, true, false, true].forEach((f, i) => d.onTrial(trial('naive', 'a', i, f), i + 1, 4));
    d.finish();
    expect(dots.text()).toBe('FF\n');
    const bar = sink();
    const b = createProgress({ stream: bar.stream, mode: 'bar', k: 1, onlyFailing: true, now: () => 0 });
    b.onTrial(trial('naive', 'a', 0), 1, 1);
    expect(bar.text()).toBe('');
  });

  it('in lines mode, writes one line per finished cell, naming the failed checks', () => {
    const { stream, text } = sink();
    const p = createProgress({ stream, mode: 'lines', k: 2 });
    const trials = [
      trial('naive', 'a', 0),
      trial('naive', 'a', 1, true),
      trial('naive', 'b', 0),
      trial('naive', 'b', 1),
    ];
    trials.forEach((t, i) => p.onTrial(t, i + 1, 4));
    p.finish();
    expect(text()).toBe(
      ['✗ naive × a: 1/2 passed (duplicates) [2/4 trials]', '✓ naive × b: 2/2 passed [4/4 trials]', ''].join('\n'),
    );
  });

  it('in bar mode, redraws at most every 80 ms (and always at the end), then clears the line', () => {
    const { stream, text } = sink(120);
    let now = 0;
    const p = createProgress({ stream, mode: 'bar', k: 4, now: () => now });
    p.onTrial(trial('rulebook', 'a', 0, true), 1, 4);
    now = 50;
    p.onTrial(trial('rulebook', 'a', 1), 2, 4);
    now = 100;
    p.onTrial(trial('rulebook', 'a', 2), 3, 4);
    now = 110;
    p.onTrial(trial('rulebook', 'a', 3), 4, 4);
    p.finish();
    const draws = text().split('\r\u001b[2K');
    expect(draws).toEqual([
      '',
      `[${'█'.repeat(6)}${'░'.repeat(18)}] 1/4 trials, 1 failed  rulebook × a`,
      `[${'█'.repeat(18)}${'░'.repeat(6)}] 3/4 trials, 1 failed  rulebook × a`,
      `[${'█'.repeat(24)}] 4/4 trials, 1 failed  rulebook × a`,
      '',
    ]);
  });

  it('fits the bar in the terminal width', () => {
    const line = barLine(10, 100, 0, 'rulebook × order-partial-write-no-idempotency', 60);
    expect([...line].length).toBe(59);
    expect(line.endsWith('…')).toBe(true);
  });

  it('off mode writes nothing', () => {
    const { stream, text } = sink();
    const p = createProgress({ stream, mode: 'off', k: 1 });
    p.onTrial(trial('x', 'a', 0), 1, 1);
    p.finish();
    expect(text()).toBe('');
  });

  it('colours the mark only when asked', () => {
    expect(cellLine('c', 's', 1, 1, [], 1, 1, true)).toBe(
      '\u001b[32m✓\u001b[39m c × s: 1/1 passed \u001b[2m[1/1 trials]\u001b[22m',
    );
  });
});
