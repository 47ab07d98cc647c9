import { describe, expect, it } from 'vitest';
import { DEFAULT_GATES, evaluateGates } from '../stats/gates.js';
import { makeRun, SAMPLE_RUN_GATES_AND_FAILURES, sampleRun } from '../report/testing.js';
import { renderComparison } from './compareTable.js';

const RULE = '─'.repeat(149);

describe('renderComparison', () => {
  it('puts configurations side by side: a row per scenario, a totals row, then gates and failures with replay commands', () => {
    const run = sampleRun();
    const text = renderComparison(run, { gates: evaluateGates(run, DEFAULT_GATES) });
    expect(text.split('\n')).toEqual([
      'faultline compare  seed 42, k = 4, 2 scenarios × 2 configurations, 16 trials (2 failed)',
      '',
      '                     │ naive                                                          │ rulebook',
      'scenario             │                pass^1              pass^4  dup   amp      p95  │       ' +
        '         pass^1              pass^4  dup   amp      p95',
      'order-partial-write  │ ✗  0.500 [0.07, 0.93]  0.000 [0.00, 0.76]    1  2.00  10.462s  │ ✓  ' +
        '1.000 [0.40, 1.00]  1.000 [0.02, 1.00]    0  2.00  10.462s',
      'rate-limit-storm     │ ✓  1.000 [0.40, 1.00]  1.000 [0.02, 1.00]    0  2.00  10.462s  │ ✓  ' +
        '1.000 [0.40, 1.00]  1.000 [0.02, 1.00]    0  2.00  10.462s',
      RULE,
      'all scenarios        │ ✗  0.750 [0.34, 0.97]  0.500 [0.03, 0.88]    1  2.00  10.462s  │ ✓  ' +
        '1.000 [0.54, 1.00]  1.000 [0.11, 1.00]    0  2.00  10.462s',
      '[lower, upper]: 95% confidence interval (exact, Clopper–Pearson; over all scenarios, a seeded Monte Carlo)',
      '',
      ...SAMPLE_RUN_GATES_AND_FAILURES,
    ]);
  });

  it('widens a group to a long configuration name and shows missing cells of an interrupted run as dashes', () => {
    const run = {
      ...makeRun({
        k: 2,
        cells: [
          { scenario: 'a', config: 'exponential-backoff-with-a-very-long-name-indeed-longer-than-its-figures' },
          {
            scenario: 'b',
            config: 'exponential-backoff-with-a-very-long-name-indeed-longer-than-its-figures',
            trials: 1,
          },
        ],
      }),
      scenarios: ['a', 'b', 'c'],
      interrupted: true,
    };
    const lines = renderComparison(run, { gates: [] }).split('\n');
    expect(lines[1]).toBe('interrupted: the figures cover only the trials that finished');
    const title = lines[3]!;
    const header = lines[4]!;
    expect(title).toBe('               │ exponential-backoff-with-a-very-long-name-indeed-longer-than-its-figures');
    // The group is exactly as wide as its title: the p95 column took the extra width.
    expect(header.length).toBe(title.length);
    expect(header.endsWith('p95')).toBe(true);
    expect(lines[6]).toMatch(/^b\s+│ ✓\s+1\.000 \[0\.03, 1\.00\]\s+n\/a\s+0\s+2\.00\s+10\.462s$/);
    expect(lines[7]).toMatch(/^c\s+│\s+-\s+-\s+-\s+-\s+-$/);
  });

  it('colours only the marks and titles, so the plain text lines up the same', () => {
    const run = sampleRun();
    const gates = evaluateGates(run, DEFAULT_GATES);
    const plain = renderComparison(run, { gates });
    const coloured = renderComparison(run, { gates, color: true });
    expect(coloured).toContain('\u001b[31m✗\u001b[39m');
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(plain);
  });
});
