import { describe, expect, it } from 'vitest';
import { FaultlineError } from '../core/errors.js';
import { makeRun, sampleRun } from '../report/testing.js';
import { DEFAULT_GATES, evaluateGates, gatesPassed, impossibleGates, parseGate } from './gates.js';

describe('parseGate', () => {
  it('parses metrics, operators and thresholds', () => {
    expect(parseGate('pass^4>=0.95')).toEqual({
      text: 'pass^4>=0.95',
      scope: {},
      metric: { kind: 'pass_hat', k: 4 },
      op: '>=',
      threshold: 0.95,
    });
    expect(parseGate('pass@1 >= 0.9').metric).toEqual({ kind: 'pass_at', k: 1 });
    expect(parseGate('pass^k>=1').metric).toEqual({ kind: 'pass_hat', k: 'k' });
    expect(parseGate('pass_rate>=1').metric).toEqual({ kind: 'cell', name: 'pass_rate' });
    expect(parseGate('duplicates==0')).toMatchObject({
      metric: { kind: 'cell', name: 'duplicates' },
      op: '==',
      threshold: 0,
    });
    expect(parseGate('budget_violations==0').metric).toEqual({ kind: 'cell', name: 'budget_violations' });
    expect(parseGate('amplification<=3')).toMatchObject({ op: '<=', threshold: 3 });
    expect(parseGate('failing_cells<1')).toMatchObject({
      metric: { kind: 'run', name: 'failing_cells' },
      op: '<',
      threshold: 1,
    });
    expect(parseGate('max_attempts>2').op).toBe('>');
    expect(parseGate('duplicates!=1').op).toBe('!=');
    expect(parseGate('pass^2>=95%').threshold).toBe(0.95);
  });

  it('parses scopes and prints them canonically', () => {
    expect(parseGate('order-partial-write:pass^2>=1')).toMatchObject({
      scope: { scenario: 'order-partial-write' },
      text: 'order-partial-write:pass^2>=1',
    });
    expect(parseGate('config=rulebook:duplicates==0')).toMatchObject({
      scope: { config: 'rulebook' },
      text: 'config=rulebook:duplicates==0',
    });
    expect(parseGate(' config=naive , scenario=a : pass@k > .5 ')).toMatchObject({
      scope: { scenario: 'a', config: 'naive' },
      text: 'scenario=a,config=naive:pass@k>0.5',
    });
  });

  it.each([
    ['pass^4', 'no comparison'],
    ['pass^x>=1', 'unknown metric "pass^x"'],
    ['pass^0>=1', 'k must be at least 1'],
    ['latency>=1', 'unknown metric "latency"'],
    ['duplicates==zero', '"zero" is not a number'],
    ['duplicates==', '"" is not a number'],
    ['config=:duplicates==0', 'empty name'],
    ['config=a,config=b:duplicates==0', 'scope "config=a,config=b" names config twice'],
    ['a,b:duplicates==0', 'scope "a,b" names scenario twice'],
    ['colour=red:duplicates==0', 'unknown scope key "colour" (use scenario=<name> or config=<name>)'],
  ])('rejects %s with a usage error showing the grammar', (text, why) => {
    let thrown: unknown;
    try {
      parseGate(text);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(FaultlineError);
    const err = thrown as FaultlineError;
    expect(err.code).toBe('FAULTLINE_USAGE');
    expect(err.message).toContain(`invalid gate "${text}": ${why}`);
    expect(err.message).toContain('gate grammar: [scope:]metric op value');
  });

  it('has default gates tied to the run k', () => {
    expect(DEFAULT_GATES.map((g) => g.text)).toEqual([
      'pass^k>=1',
      'duplicates==0',
      'budget_violations==0',
      'unexercised==0',
    ]);
  });
});

describe('recovery gates', () => {
  // One cell recovers in 7 of 8 trials (one never), one in all 8; a third scenario has no heal.
  const healed = makeRun({
    k: 8,
    cells: [
      { scenario: 'outage', config: 'rulebook', recovery: [800, 1_000, 1_000, 1_200, 900, 1_100, 1_000, 4_000] },
      { scenario: 'outage', config: 'naive', recovery: [500, 700, 900, 1_000, 1_000, 1_000, 2_000, null] },
      { scenario: 'plain', config: 'rulebook' },
    ],
  });

  it('parses recovery and recovery_p95_ms, and takes a bound on recovery as on any rate', () => {
    expect(parseGate('recovery>=0.9').metric).toEqual({ kind: 'cell', name: 'recovery' });
    expect(parseGate('recovery_p95_ms<=5000').metric).toEqual({ kind: 'cell', name: 'recovery_p95_ms' });
    expect(parseGate('recovery>=0.5@95%')).toMatchObject({ text: 'recovery>=0.5@95%', confidence: 0.95 });
    expect(() => parseGate('recovery_p95_ms<=5000@95%')).toThrow(
      /applies only to a rate: pass\^n, pass@n, pass_rate or recovery, not recovery_p95_ms/,
    );
    expect(() => parseGate('recovry>=1')).toThrow(/metric: pass\^<n\|k>, pass@<n\|k>, .*recovery, recovery_p95_ms/);
  });

  it('judges only the cells that expect a recovery, naming the one that broke it', () => {
    const [rate, p95] = evaluateGates(healed, ['recovery>=0.9', 'recovery_p95_ms<=5000'].map(parseGate));
    expect(rate).toMatchObject({
      passed: false,
      actual: 0.875,
      scope: { level: 'cell', cells: 2 },
      failures: [{ scenario: 'outage', config: 'naive', actual: 0.875 }],
    });
    // The naive cell's p95 falls on its trial that never recovered.
    expect(p95).toMatchObject({
      passed: false,
      actual: 4_000,
      failures: [{ scenario: 'outage', config: 'naive', actual: null }],
    });
    expect(evaluateGates(healed, [parseGate('config=rulebook:recovery>=1')])[0]).toMatchObject({
      passed: true,
      scope: { cells: 1 },
    });
  });

  it('fails a recovery gate whose scope has no cell that expects one', () => {
    const [r] = evaluateGates(healed, [parseGate('plain:recovery>=0.5')]);
    expect(r).toMatchObject({ passed: false, actual: null, scope: { cells: 0 } });
    expect(r!.message).toBe(
      'plain:recovery>=0.5 failed: no cell in scope expects a recovery (a scenario with heal: { atMs } and recovery: { withinMs })',
    );
  });

  it("judges a bound on the recovered trials' exact interval, undecided when only the bound fails", () => {
    const [r] = evaluateGates(healed, [parseGate('config=rulebook:recovery>=0.9@95%')]);
    // 8 of 8: the 95% lower bound is 0.025^(1/8) = 0.631; 0.025^(1/n) >= 0.9 from n = 36 (ln 0.025 / ln 0.9 = 35.01).
    expect(r!.passed).toBe(false);
    expect(r!.actual).toBeCloseTo(0.025 ** (1 / 8), 6);
    expect(r!.failures[0]).toMatchObject({ estimate: 1, undecided: { trials: 8, needs: 36 } });
  });
});

describe('evaluateGates', () => {
  const run = sampleRun();

  it('fails the default gates in the cells that broke them and names them', () => {
    const results = evaluateGates(run, DEFAULT_GATES);
    expect(results.map((r) => [r.gate, r.passed, r.actual])).toEqual([
      ['pass^k>=1', false, 0],
      ['duplicates==0', false, 1],
      ['budget_violations==0', false, 1],
      ['unexercised==0', true, 0],
    ]);
    expect(results[0]!.failures).toEqual([{ scenario: 'order-partial-write', config: 'naive', actual: 0 }]);
    expect(results[0]!.scope).toEqual({ level: 'cell', cells: 4 });
    expect(results[1]!.message).toBe('duplicates==0 failed in 1 of 4 cells: order-partial-write × naive (1)');
    expect(gatesPassed(results)).toBe(false);
  });

  it('computes pass^k, pass@k and pass_rate per cell', () => {
    // naive × order-partial-write: 2 of 4 trials passed.
    const [hat1, hat2, at2, rate] = evaluateGates(
      run,
      [
        'order-partial-write:pass^1>=0.5',
        'order-partial-write:pass^2>=0.2',
        'order-partial-write:pass@2>=0.8',
        'pass_rate>=0.6',
      ].map(parseGate),
    );
    expect(hat1).toMatchObject({
      passed: true,
      actual: 0.5,
      scope: { level: 'cell', scenario: 'order-partial-write', cells: 2 },
    });
    // C(2,2)/C(4,2) = 1/6
    expect(hat2!.passed).toBe(false);
    expect(hat2!.actual).toBeCloseTo(1 / 6, 12);
    // 1 - C(2,2)/C(4,2) = 5/6
    expect(at2!.actual).toBeCloseTo(5 / 6, 12);
    expect(at2!.passed).toBe(true);
    expect(rate).toMatchObject({
      passed: false,
      actual: 0.5,
      failures: [{ scenario: 'order-partial-write', config: 'naive', actual: 0.5 }],
    });
  });

  it('scopes gates to one configuration', () => {
    const [ok, bad] = evaluateGates(run, [
      parseGate('config=rulebook:pass^k>=1'),
      parseGate('config=naive:duplicates==0'),
    ]);
    expect(ok).toMatchObject({ passed: true, actual: 1, scope: { level: 'cell', config: 'rulebook', cells: 2 } });
    expect(ok!.message).toBe('config=rulebook:pass^k>=1 held in 2 cells (worst 1)');
    expect(bad).toMatchObject({ passed: false, actual: 1 });
  });

  it('evaluates run-level metrics once', () => {
    const [cells, interrupted] = evaluateGates(run, [parseGate('failing_cells==0'), parseGate('interrupted==0')]);
    expect(cells).toMatchObject({ passed: false, actual: 1, failures: [], scope: { level: 'run', cells: 4 } });
    expect(interrupted).toMatchObject({ passed: true, actual: 0 });
    expect(evaluateGates(makeRun({ cells: [], interrupted: true }), [parseGate('interrupted==0')])[0]!.passed).toBe(
      false,
    );
  });

  it('fails a gate whose scope matches no cell', () => {
    const [r] = evaluateGates(run, [parseGate('order-partal-write:pass^1>=1')]);
    expect(r).toMatchObject({ passed: false, actual: null });
    expect(r!.message).toContain(
      'no scenario "order-partal-write" in this run (scenarios: order-partial-write, rate-limit-storm)',
    );
  });

  it('fails pass^k when a cell has fewer than k trials', () => {
    const short = makeRun({ k: 4, cells: [{ scenario: 'a', config: 'c', trials: 2 }], interrupted: true });
    const [r] = evaluateGates(short, DEFAULT_GATES);
    expect(r).toMatchObject({ passed: false, actual: null, failures: [{ scenario: 'a', config: 'c', actual: null }] });
  });

  it('applies every operator with a tolerance for float error', () => {
    const clean = makeRun({ k: 3, cells: [{ scenario: 'a', config: 'c' }] });
    const held = (text: string): boolean => evaluateGates(clean, [parseGate(text)])[0]!.passed;
    expect(held('pass^3>=1')).toBe(true);
    expect(held('pass^3>1')).toBe(false);
    expect(held('pass^3<=1')).toBe(true);
    expect(held('pass^3<1')).toBe(false);
    expect(held('pass^3==1')).toBe(true);
    expect(held('pass^3!=1')).toBe(false);
    expect(held('amplification<=2')).toBe(true);
    expect(held('amplification<2')).toBe(false);
    expect(held('p95_ms<10000')).toBe(false);
  });
});

describe('impossibleGates', () => {
  const shape = { k: 2, scenarios: ['a', 'b'], configs: ['rulebook'] };
  it('accepts the defaults and every gate that can hold', () => {
    const gates = [
      ...DEFAULT_GATES,
      ...[
        'pass^2>=1',
        'pass_rate<=0',
        'pass^1>0.99',
        'a:duplicates==0',
        'config=rulebook:p95_ms<10',
        'interrupted!=1',
        'pass@k>=0',
      ].map(parseGate),
    ];
    expect(impossibleGates(gates, shape)).toEqual([]);
  });

  it('names a k above the run, a threshold out of range, and a scope outside the run', () => {
    const gates = [
      'pass^3>=1',
      'pass_rate>=1.5',
      'pass^1>1',
      'duplicates<0',
      'amplification<=-1',
      'pass@1==2',
      'c:duplicates==0',
      'config=naive:pass^1>=1',
    ].map(parseGate);
    expect(impossibleGates(gates, shape)).toEqual([
      '--gate pass^3>=1 can never hold: pass^3 needs at least 3 trials per cell, and this run has --k 2',
      '--gate pass_rate>=1.5 can never hold: pass_rate is a rate from 0 to 1',
      '--gate pass^1>1 can never hold: pass^1 is a rate from 0 to 1',
      '--gate duplicates<0 can never hold: duplicates is never negative',
      '--gate amplification<=-1 can never hold: amplification is never negative',
      '--gate pass@1==2 can never hold: pass@1 is a rate from 0 to 1',
      '--gate c:duplicates==0 can never hold: no scenario "c" in this run (scenarios: a, b)',
      '--gate config=naive:pass^1>=1 can never hold: no configuration "naive" in this run (configs: rulebook)',
    ]);
  });
});

describe('gates on a confidence bound', () => {
  it('parses @confidence after a rate, canonically as a percentage', () => {
    expect(parseGate('pass^4>=0.9@95%')).toEqual({
      text: 'pass^4>=0.9@95%',
      scope: {},
      metric: { kind: 'pass_hat', k: 4 },
      op: '>=',
      threshold: 0.9,
      confidence: 0.95,
    });
    expect(parseGate('a:pass@2 < 0.5 @ 0.9').text).toBe('a:pass@2<0.5@90%');
    expect(parseGate('pass_rate>=90%@99.5%').confidence).toBe(0.995);
  });

  it.each([
    [
      'duplicates<=0@95%',
      'a confidence bound (@) applies only to a rate: pass^n, pass@n, pass_rate or recovery, not duplicates',
    ],
    ['pass^2==1@95%', 'a confidence bound (@) needs >=, >, <= or <'],
    ['pass^2>=0.9@100%', 'confidence "100%" must be between 0% and 100% (exclusive)'],
    ['pass^2>=0.9@0', 'confidence "0" must be between 0% and 100% (exclusive)'],
    ['pass^2>=0.9@high', '"high" is not a number'],
  ])('refuses %s', (text, why) => {
    expect(() => parseGate(text)).toThrow(why);
    expect(() => parseGate(text)).toThrow('bound:  @<confidence>');
  });

  // 40 of 40 passing: the exact 95% lower bound of p is 0.025^(1/40) = 0.9119.
  const clean = makeRun({ k: 40, cells: [{ scenario: 'a', config: 'c' }] });
  // 38 of 40: the estimate 0.95 holds a 0.9 threshold, the lower bound (0.8308) does not.
  const twoFailed = makeRun({
    k: 40,
    cells: [
      {
        scenario: 'a',
        config: 'c',
        fail: { 3: [{ check: 'goal-state', message: 'x' }], 9: [{ check: 'goal-state', message: 'x' }] },
      },
    ],
  });

  it('holds when the lower bound clears the threshold, and reports the bound', () => {
    const [r] = evaluateGates(clean, [parseGate('pass^1>=0.9@95%')]);
    expect(r).toMatchObject({ passed: true, confidence: 0.95, failures: [] });
    expect(r!.actual).toBeCloseTo(0.025 ** (1 / 40), 12);
    expect(r!.message).toBe('pass^1>=0.9@95% held in 1 cell (worst 95% lower bound 0.9119)');
  });

  it('is undecided when the estimate holds and the bound does not, and says how many trials would decide it', () => {
    const [r] = evaluateGates(twoFailed, [parseGate('pass_rate>=0.9@95%')]);
    expect(r!.passed).toBe(false);
    expect(r!.failures).toHaveLength(1);
    const f = r!.failures[0]!;
    expect(f.estimate).toBe(0.95);
    expect(f.actual).toBeCloseTo(0.8308, 4);
    expect(f.undecided!.trials).toBe(40);
    // The smallest N with the 95% lower bound of (38 + N - 40) / N at 0.9 or above.
    const needs = f.undecided!.needs!;
    expect(needs).toBeGreaterThan(40);
    // The same two failures in a cell of k trials: does the gate pass?
    const passesWith = (k: number): boolean =>
      evaluateGates(
        makeRun({
          k,
          cells: [
            {
              scenario: 'a',
              config: 'c',
              fail: { 3: [{ check: 'goal-state', message: 'x' }], 9: [{ check: 'goal-state', message: 'x' }] },
            },
          ],
        }),
        [parseGate('pass_rate>=0.9@95%')],
      )[0]!.passed;
    expect(passesWith(needs)).toBe(true);
    expect(passesWith(needs - 1)).toBe(false);
    expect(r!.message).toBe(
      `pass_rate>=0.9@95% undecided in 1 of 1 cells: a × c (95% lower bound 0.8308, pass_rate = 0.95): ` +
        `with every further trial passing, pass_rate>=0.9@95% needs n ≥ ${needs} trials per cell; this run has 40`,
    );
  });

  it('fails outright when the estimate fails too', () => {
    const [r] = evaluateGates(twoFailed, [parseGate('pass^1>=0.97@95%')]);
    expect(r!.passed).toBe(false);
    expect(r!.failures[0]!.undecided).toBeUndefined();
    expect(r!.message).toBe('pass^1>=0.97@95% failed in 1 of 1 cells: a × c (95% lower bound 0.8308, pass^1 = 0.95)');
  });

  it('compares the upper bound for <= and <', () => {
    const [upper] = evaluateGates(twoFailed, [parseGate('pass^1<=0.995@95%')]);
    expect(upper!.passed).toBe(true);
    expect(upper!.actual).toBeCloseTo(0.9939, 4);
    const [tight] = evaluateGates(twoFailed, [parseGate('pass^1<0.99@95%')]);
    expect(tight!.passed).toBe(false);
    expect(tight!.failures[0]!.undecided?.needs).toBeGreaterThan(40);
    expect(tight!.message).toContain('with every further trial failing');
  });

  it('names the cells that failed, then the undecided ones by what they need', () => {
    const run = sampleRun();
    const [r] = evaluateGates(run, [parseGate('pass^2>=0.9@95%')]);
    expect(r!.message).toBe(
      'pass^2>=0.9@95% failed in 4 of 4 cells: order-partial-write × naive (95% lower bound 0.0046, pass^2 = 0.1667); ' +
        'undecided in rate-limit-storm × naive, order-partial-write × rulebook, rate-limit-storm × ' +
        'rulebook (95% lower bound 0.1581, pass^2 = 1): ' +
        'with every further trial passing, pass^2>=0.9@95% needs n ≥ 71 trials per cell; this run has 4',
    );
  });

  it('leaves the default gates and gates without @ as they were', () => {
    expect(DEFAULT_GATES.every((g) => g.confidence === undefined)).toBe(true);
    expect(evaluateGates(twoFailed, [parseGate('pass_rate>=0.9')])[0]).toMatchObject({ passed: true, actual: 0.95 });
  });

  it('refuses before the run a bound that k trials could not reach even if all passed, with the count that could', () => {
    const shape = { k: 4, scenarios: ['a'], configs: ['c'] };
    expect(impossibleGates([parseGate('pass^2>=0.9@95%')], shape)).toEqual([
      '--gate pass^2>=0.9@95% can never hold: with every trial passing, the 95% lower bound of pass^2 ' +
        'from 4 trials is 0.1581; it needs n ≥ 71 trials per cell (--k 71), and this run has --k 4',
    ]);
    // 0.025^(2/71) = 0.9013 and 0.025^(2/70) = 0.8999: 71 is the first count that holds.
    expect(impossibleGates([parseGate('pass^2>=0.9@95%')], { ...shape, k: 71 })).toEqual([]);
    expect(impossibleGates([parseGate('pass^1<=0.1@95%')], shape)[0]).toContain(
      'with every trial failing, the 95% upper bound of pass^1 from 4 trials is 0.6024; it needs n ≥ 36',
    );
    expect(impossibleGates([parseGate('pass^1>=1@95%')], shape)[0]).toContain(
      'no trial count up to 10,000,000 would reach 1',
    );
    expect(impossibleGates([parseGate('pass^k>=0.9@95%')], shape)[0]).toContain('name a fixed k such as pass^4');
  });
});
