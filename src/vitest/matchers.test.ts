import { describe, expect, it } from 'vitest';
import { runScenario } from '../public/vitest.js';
import { loadScenarios } from '../runner/library.js';

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
    expect(message).toContain('expected pass^4 of order-partial-write-idempotent × naive to be at least 0.5, got 0.000 (0 of 4 trials passed)');
    expect(message).toMatch(/duplicates: orders:ref-200 was created 2 times/);
    expect(message).toMatch(/evidence: \[/);
    expect(message).toContain('replay: faultline replay order-partial-write-idempotent --config naive --seed 5 --trial 0');
    expect(message).toContain('(3 more failed trials; replay each with its --trial)');
    expect(message).toMatch(/rules: R\d+.*\(explained in .*rules\.md#r\d+\)/);
    expect(run).not.toHavePassK(4);
  });

  it('toHaveNoDuplicateEffects fails with the duplicates evidence', async () => {
    const run = await runScenario('order-partial-write-no-idempotency', { retryConfig: 'naive', k: 2 });
    expect(() => expect(run).toHaveNoDuplicateEffects()).toThrow(/found 2 in 2 of 2 trials[\s\S]*duplicates: [\s\S]*replay: faultline replay order-partial-write-no-idempotency --config naive --seed 1 --trial 0/);
    expect(run).not.toHaveNoDuplicateEffects();
  });

  it('toStayWithinBudget fails with the budget evidence', async () => {
    const run = await runScenario('retry-after-beyond-deadline', { retryConfig: 'no-retry', k: 2 });
    expect(() => expect(run).toStayWithinBudget()).toThrow(/2 of 2 trials did not[\s\S]*budget: [\s\S]*replay: faultline replay retry-after-beyond-deadline --config no-retry/);
    expect(run).toHaveNoDuplicateEffects();
  });

  it('toExerciseEveryFault, and toHavePassK, fail on a cell whose fault rule never fired, naming the rule and its firings', async () => {
    const [builtin] = await loadScenarios(['order-partial-write-idempotent']);
    const silent = { ...builtin!, faults: builtin!.faults.map((r) => ({ ...r, match: { ...r.match, call: 7 } })) };
    const run = await runScenario(silent, { retryConfig: 'naive', k: 2 });
    const rule = 'faults[0] (create_order call 7, partial_write, times 1) never fired in 2 trials: the cell is not exercised';
    expect(() => expect(run).toExerciseEveryFault()).toThrow(`expected every fault rule of order-partial-write-idempotent × naive to fire: ${rule}\n\nfault coverage:\n  faults[0] (create_order call 7, partial_write, times 1): 0/2 trials, 0×`);
    expect(() => expect(run).toHavePassK(2)).toThrow(`to be at least 1 over trials that exercised every fault, but ${rule}`);
    expect(run).not.toExerciseEveryFault();

    const optedOut = await runScenario({ ...silent, faults: silent.faults.map((r) => ({ ...r, expect: 'may-not-fire' as const })) }, { retryConfig: 'naive', k: 2 });
    expect(optedOut).toExerciseEveryFault();
    expect(optedOut).toHavePassK(2);
    expect(await runScenario('order-partial-write-idempotent', { k: 2 })).toExerciseEveryFault();
  });

  it('refuses a k outside the trials that ran, and a subject that is not a result', async () => {
    const run = await runScenario('read-timeout-retry', { k: 2 });
    expect(() => expect(run).toHavePassK(3)).toThrow('k must be a whole number from 1 to the 2 trials that ran, got 3');
    expect(() => expect({ nope: 1 }).toHavePassK()).toThrow(/expect the result of runScenario/);
  });
});
