import { describe, expect, it } from 'vitest';
import { DEFAULT_GATES, evaluateGates, parseGate } from '../stats/gates.js';
import { escapeMarkdown, renderMarkdownReport } from './markdown.js';
import { makeRun, sampleRun } from './testing.js';

describe('markdown report', () => {
  const run = sampleRun();
  const md = renderMarkdownReport(run, { gates: evaluateGates(run, DEFAULT_GATES) });

  it('heads with the gate verdict and the run', () => {
    expect(md.split('\n').slice(0, 3)).toEqual([
      '## faultline: ❌ 3 of 4 gates failed',
      '',
      'seed 42, k = 4, 2 scenarios × 2 configurations, 16 trials (2 failed).',
    ]);
  });

  it('has a table per configuration with the figures', () => {
    expect(md).toContain(
      [
        '### naive',
        '',
        '| scenario | pass^1 | pass^4 | pass@4 | trials passed | duplicates | budget violations | amplification | p95 virtual time |',
        '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
        '| ❌ order-partial-write | 0.500 \\[0.07, 0.93\\] | 0.000 \\[0.00, 0.76\\] | 1.000 \\[0.24, 1.00\\] | ' +
          '2/4 | 1 | 1 | 2.00 | 10.462s |',
        '| ✅ rate-limit-storm | 1.000 \\[0.40, 1.00\\] | 1.000 \\[0.02, 1.00\\] | 1.000 \\[0.87, 1.00\\] | ' +
          '4/4 | 0 | 0 | 2.00 | 10.462s |',
        '| ❌ all scenarios | 0.750 \\[0.34, 0.97\\] | 0.500 \\[0.03, 0.88\\] | 1.000 \\[0.60, 1.00\\] | ' +
          '6/8 | 1 | 1 | 2.00 |  |',
      ].join('\n'),
    );
    expect(md).toContain('### rulebook');
    expect(md).toContain(
      '<sub>\\[lower, upper\\]: 95% confidence interval (exact, Clopper–Pearson; over all scenarios, a seeded Monte Carlo)</sub>',
    );
  });

  it('lists the gates', () => {
    expect(md).toContain(
      [
        '### Gates',
        '',
        '- ❌ `pass^k>=1`: failed in order-partial-write × naive (0)',
        '- ❌ `duplicates==0`: failed in order-partial-write × naive (1)',
        '- ❌ `budget_violations==0`: failed in order-partial-write × naive (1)',
      ].join('\n'),
    );
    const ok = renderMarkdownReport(run, { gates: evaluateGates(run, [parseGate('config=rulebook:pass^k>=1')]) });
    expect(ok).toContain('## faultline: ✅ all 1 gate held');
    expect(ok).toContain('- ✅ `config=rulebook:pass^k>=1`: actual 1');
  });

  it('details each failing cell with its verdicts and replay commands', () => {
    expect(md).toContain(
      [
        '<details>',
        '<summary>❌ order-partial-write × naive: 2 of 4 trials failed (duplicates, budget)</summary>',
        '',
        '**Trial 1** (seed 42001, ended `agent_ended`)',
        '',
        '- duplicates: orders:ref-1 was created 2 times',
        '',
        '```sh',
        'faultline replay order-partial-write --config naive --seed 42 --trial 1',
        '```',
        '',
        '**Trial 3** (seed 42003, ended `agent_ended`)',
        '',
        '- budget: call-1 made 5 attempts (limit 3)',
        '',
        '```sh',
        'faultline replay order-partial-write --config naive --seed 42 --trial 3',
        '```',
        '',
        '</details>',
      ].join('\n'),
    );
    // One for the failing cell, one for the folded fault coverage.
    expect(md.match(/<details>/g)).toHaveLength(2);
  });

  it('caps the failing trials shown per cell', () => {
    const many = makeRun({
      k: 3,
      cells: [
        {
          scenario: 'a',
          config: 'c',
          fail: {
            0: [{ check: 'budget', message: 'm' }],
            1: [{ check: 'budget', message: 'm' }],
            2: [{ check: 'budget', message: 'm' }],
          },
        },
      ],
    });
    const text = renderMarkdownReport(many, { gates: [], maxTrialsPerCell: 1 });
    expect(text.match(/faultline replay/g)).toHaveLength(1);
    expect(text).toContain('…and 2 more failing trials (see faultline.json).');
    expect(text.startsWith('## faultline\n')).toBe(true);
  });

  it('warns when the run was interrupted', () => {
    const text = renderMarkdownReport(
      makeRun({ cells: [{ scenario: 'a', config: 'c', trials: 1 }], interrupted: true }),
      { gates: [] },
    );
    expect(text).toContain('> ⚠️ The run was interrupted: the figures cover only the trials that finished.');
  });

  it('escapes text that would break a table or inject HTML', () => {
    expect(escapeMarkdown('a|b <script> & *x*\nnext')).toBe('a\\|b &lt;script&gt; &amp; \\*x\\* next');
    const text = renderMarkdownReport(
      makeRun({
        k: 1,
        cells: [{ scenario: 'x|y', config: 'c', fail: { 0: [{ check: 'goal-state', message: '</details><b>' }] } }],
      }),
      { gates: [] },
    );
    expect(text).toContain('| ❌ x\\|y |');
    expect(text).toContain('- goal-state: &lt;/details&gt;&lt;b&gt;');
    expect(text).toContain("faultline replay 'x|y' --config c --seed 42 --trial 0");
  });
});
