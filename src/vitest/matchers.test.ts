import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CHECKER_NAMES } from './checkMatchers.js';
import { historyText } from './historySnapshot.js';
import { runScenario } from '../public/vitest.js';
import { loadScenarios } from '../scenario/library.js';

describe('faultline/vitest matchers', () => {
  it('pass on a cell that holds every default gate', async () => {
    const run = await runScenario('order-partial-write-idempotent', { retryConfig: 'rulebook', k: 3 });
    expect(run).toHavePassK(3);
    expect(run).toHavePassK(1, 1);
    expect(run).toHaveNoDuplicateEffects();
    expect(run).toStayWithinBudget();
    // One trial, or a list of them, works as well as a cell.
    expect(run.trials[0]).toHavePassK();
    expect(run.trials).toStayWithinBudget();
  });

  it('toHavePassK fails with the verdicts, their evidence, the replay command and the rules', async () => {
    const run = await runScenario('order-partial-write-idempotent', { retryConfig: 'naive', k: 4, seed: 5 });
    let message = '';
    try {
      expect(run).toHavePassK(4, 0.5);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain(
      'expected pass^4 of order-partial-write-idempotent × naive to be at least 0.5, got 0.000 (0 of 4 trials passed)',
    );
    expect(message).toMatch(/duplicates: orders:ref-200 was created 2 times/);
    expect(message).toMatch(/evidence: \[/);
    expect(message).toContain(
      'replay: faultline replay order-partial-write-idempotent --config naive --seed 5 --trial 0',
    );
    expect(message).toContain('(3 more failed trials; replay each with its --trial)');
    expect(message).toMatch(/rules: R\d+.*\(explained in .*rules\.md#r\d+\)/);
    expect(run).not.toHavePassK(4);
  });

  it('toHaveNoDuplicateEffects fails with the duplicates evidence', async () => {
    const run = await runScenario('order-partial-write-no-idempotency', { retryConfig: 'naive', k: 2 });
    expect(() => expect(run).toHaveNoDuplicateEffects()).toThrow(
      new RegExp(
        [
          String.raw`found 2 in 2 of 2 trials[\s\S]*duplicates: [\s\S]*`,
          String.raw`replay: faultline replay order-partial-write-no-idempotency --config naive --seed 1 --trial 0`,
        ].join(''),
      ),
    );
    expect(run).not.toHaveNoDuplicateEffects();
  });

  it('toStayWithinBudget fails with the budget evidence', async () => {
    const run = await runScenario('retry-after-beyond-deadline', { retryConfig: 'no-retry', k: 2 });
    expect(() => expect(run).toStayWithinBudget()).toThrow(
      /2 of 2 trials did not[\s\S]*budget: [\s\S]*replay: faultline replay retry-after-beyond-deadline --config no-retry/,
    );
    expect(run).toHaveNoDuplicateEffects();
  });

  it('toExerciseEveryFault, and toHavePassK, fail on a cell whose fault rule never fired, naming the rule and its firings', async () => {
    const [builtin] = await loadScenarios(['order-partial-write-idempotent']);
    const silent = { ...builtin!, faults: builtin!.faults.map((r) => ({ ...r, match: { ...r.match, call: 7 } })) };
    const run = await runScenario(silent, { retryConfig: 'naive', k: 2 });
    const rule =
      'faults[0] (create_order call 7, partial_write, times 1) never fired in 2 trials: the cell is not exercised';
    expect(() => expect(run).toExerciseEveryFault()).toThrow(
      `expected every fault rule of order-partial-write-idempotent × naive to fire: ${rule}\n\nfault ` +
        `coverage:\n  faults[0] (create_order call 7, partial_write, times 1): 0/2 trials, 0×`,
    );
    expect(() => expect(run).toHavePassK(2)).toThrow(
      `to be at least 1 over trials that exercised every fault, but ${rule}`,
    );
    expect(run).not.toExerciseEveryFault();

    const optedOut = await runScenario(
      { ...silent, faults: silent.faults.map((r) => ({ ...r, expect: 'may-not-fire' as const })) },
      { retryConfig: 'naive', k: 2 },
    );
    expect(optedOut).toExerciseEveryFault();
    expect(optedOut).toHavePassK(2);
    expect(await runScenario('order-partial-write-idempotent', { k: 2 })).toExerciseEveryFault();
  });

  it('refuses a k outside the trials that ran, and a subject that is not a result', async () => {
    const run = await runScenario('read-timeout-retry', { k: 2 });
    expect(() => expect(run).toHavePassK(3)).toThrow('k must be a whole number from 1 to the 2 trials that ran, got 3');
    expect(() => expect({ nope: 1 }).toHavePassK()).toThrow(/expect the result of runScenario/);
  });

  it('toHavePassK with { atLeast, confidence } judges the lower bound of the exact interval, as a gate @95% does', async () => {
    const run = await runScenario('read-timeout-retry', { k: 20 });
    // 20 of 20: p's 95% lower bound is 0.025^(1/20) = 0.832, pass^2's 0.692.
    expect(run).toHavePassK(2, { atLeast: 0.69, confidence: 0.95 });
    expect(run).not.toHavePassK(2, { atLeast: 0.7, confidence: 0.95 });
    expect(run).toHavePassK(2, { atLeast: 0.7 });
    expect(() => expect(run).toHavePassK(2, { atLeast: 0.7, confidence: 0.95 })).toThrow(
      'expected the lower 95% bound of pass^2 of read-timeout-retry × rulebook to be at least 0.7, ' +
        'got 0.692 (pass^2 1.000, 95% interval [0.692, 1.000]; 20 of 20 trials passed)\neven with ' +
        'every trial passing, it takes at least 21 trials (this subject has 20)',
    );
    expect(() => expect(run).toHavePassK(2, { atLeast: 1, confidence: 0.9 })).toThrow(
      'no number of trials can bound pass^2 to 1 or more',
    );
    expect(() => expect(run).toHavePassK(2, { confidence: 1 })).toThrow(
      'toHavePassK: confidence must be between 0 and 1 (exclusive), such as 0.95, got 1',
    );
    expect(() => expect(run).toHavePassK(2, { atLeast: 2 })).toThrow(
      'toHavePassK: atLeast must be a number from 0 to 1, got 2',
    );
  });

  it('toPassCheck fails on an unknown checker and on one the scenario left out, under .not too', async () => {
    const run = await runScenario('read-timeout-retry', { k: 1 });
    expect(run).toPassCheck('budget');
    for (const assert of [
      () => expect(run).toPassCheck('nope' as 'budget'),
      () => expect(run).not.toPassCheck('nope' as 'budget'),
    ]) {
      expect(assert).toThrow(`toPassCheck: no checker is named "nope"; the checkers are ${CHECKER_NAMES.join(', ')}`);
    }
    const [builtin] = await loadScenarios(['read-timeout-retry']);
    const narrow = await runScenario({ ...builtin!, checks: ['goal-state', 'budget'] }, { k: 1 });
    expect(() => expect(narrow).not.toPassCheck('honesty')).toThrow(
      "toPassCheck: the honesty checker did not judge read-timeout-retry × rulebook: its scenario's checks are goal-state, budget",
    );
  });

  it('the checker names typed for toPassCheck are the built-in checkers', async () => {
    const entry = await readFile(new URL('../public/vitest.ts', import.meta.url), 'utf8');
    const union = /type CheckerName =([^;]+);/.exec(entry)![1]!;
    expect([...union.matchAll(/'([\w-]+)'/g)].map((m) => m[1])).toEqual(CHECKER_NAMES);
  });

  it(
    'historyText: one line per event then the verdicts, the same for the same seed, and an error for ' +
      'a trial kept without history',
    async () => {
      const [a, b] = await Promise.all([
        runScenario('read-timeout-retry', { k: 1, seed: 3 }),
        runScenario('read-timeout-retry', { k: 1, seed: 3 }),
      ]);
      const text = historyText(a.trials[0]!);
      expect(text).toBe(historyText(b.trials[0]!));
      const lines = text.split('\n');
      expect(lines.indexOf('')).toBe(a.trials[0]!.history.length);
      expect(lines.slice(lines.indexOf('') + 1)).toEqual(a.trials[0]!.checks.map((c) => `✓ ${c.name}`));
      expect(() => historyText({ ...a.trials[0]!, history: [] })).toThrow(
        'toMatchHistorySnapshot: trial 0 of read-timeout-retry × rulebook kept no history',
      );
    },
  );
});
