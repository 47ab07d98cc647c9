import { describe, expect, it } from 'vitest';
import { DEFAULT_GATES, evaluateGates } from '../stats/gates.js';
import { colorEnabled, renderConsoleReport } from './console.js';
import { SAMPLE_RUN_GATES_AND_FAILURES, sampleRun } from './testing.js';

describe('console report', () => {
  const run = sampleRun();
  const gates = evaluateGates(run, DEFAULT_GATES);

  it('prints aligned tables, the gates and each failing cell with its first verdict and replay command', () => {
    expect(renderConsoleReport(run, { gates })).toBe(
      [
        'faultline  seed 42, k = 4, 2 scenarios × 2 configurations, 16 trials (2 failed)',
        '',
        'naive',
        '    scenario                         pass^1              pass^4              pass@4  trials ' +
          'passed  duplicates  budget violations  amplification  p95 virtual time',
        '  ✗ order-partial-write  0.500 [0.07, 0.93]  0.000 [0.00, 0.76]  1.000 [0.24, 1.00]         ' +
          '   2/4           1                  1           2.00           10.462s',
        '  ✓ rate-limit-storm     1.000 [0.40, 1.00]  1.000 [0.02, 1.00]  1.000 [0.87, 1.00]         ' +
          '   4/4           0                  0           2.00           10.462s',
        '  ✗ all scenarios        0.750 [0.34, 0.97]  0.500 [0.03, 0.88]  1.000 [0.60, 1.00]         ' +
          '   6/8           1                  1           2.00',
        '',
        'rulebook',
        '    scenario                         pass^1              pass^4              pass@4  trials ' +
          'passed  duplicates  budget violations  amplification  p95 virtual time',
        '  ✓ order-partial-write  1.000 [0.40, 1.00]  1.000 [0.02, 1.00]  1.000 [0.87, 1.00]         ' +
          '   4/4           0                  0           2.00           10.462s',
        '  ✓ rate-limit-storm     1.000 [0.40, 1.00]  1.000 [0.02, 1.00]  1.000 [0.87, 1.00]         ' +
          '   4/4           0                  0           2.00           10.462s',
        '  ✓ all scenarios        1.000 [0.54, 1.00]  1.000 [0.11, 1.00]  1.000 [0.89, 1.00]         ' +
          '   8/8           0                  0           2.00',
        '    [lower, upper]: 95% confidence interval (exact, Clopper–Pearson; over all scenarios, a seeded Monte Carlo)',
        '',
        'fault coverage',
        '    scenario             configuration  rule       match, fault                             fired in  firings',
        '  ✓ order-partial-write  naive          faults[0]  create_order attempt 1, partial_write  4/4 trials        4',
        '  ✓ rate-limit-storm     naive          faults[0]  create_order attempt 1, partial_write  4/4 trials        4',
        '  ✓ order-partial-write  rulebook       faults[0]  create_order attempt 1, partial_write  4/4 trials        4',
        '  ✓ rate-limit-storm     rulebook       faults[0]  create_order attempt 1, partial_write  4/4 trials        4',
        '',
        ...SAMPLE_RUN_GATES_AND_FAILURES,
      ].join('\n'),
    );
  });

  it('uses no escape codes unless colour is on', () => {
    expect(renderConsoleReport(run, { gates })).not.toContain('\u001b[');
    const coloured = renderConsoleReport(run, { gates, color: true });
    expect(coloured).toContain('\u001b[31m✗\u001b[39m order-partial-write');
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(renderConsoleReport(run, { gates }));
  });

  it('colours only a TTY, never with NO_COLOR, always with FORCE_COLOR', () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(colorEnabled({}, {})).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorEnabled({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(true);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
  });
});
