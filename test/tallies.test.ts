import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { CellTally, type Cell } from '../src/stats/CellTally.js';
import { loadConfigs, loadScenarios } from '../src/scenario/library.js';
import { mergeRuns } from '../src/runner/mergeRuns.js';
import { finishRun, runMatrix, type RunResult } from '../src/runner/run.js';
import { runTrial, summarise, type TrialSummary } from '../src/runner/trial.js';

/**
 * Law: a cell is the same whatever order its trials arrive in (workers answer out of order)
 * and however they are split (shards), so 1 or N workers and merged shards report alike.
 */

const K = 12;
const REFS = { scenario: 'order-partial-write-no-idempotency', config: 'naive' };
let trials: TrialSummary[];

beforeAll(async () => {
  const [scenario] = await loadScenarios([REFS.scenario]);
  // Naive duplicates the order, the rulebook does not: a mix of failing and passing trials (the tally reads only their verdicts and stats).
  const [naive, rulebook] = await loadConfigs(['naive', 'rulebook']);
  trials = [];
  for (let i = 0; i < K; i++) {
    const t = await runTrial({
      scenario: scenario!,
      config: i % 3 === 0 ? rulebook! : naive!,
      runSeed: 3,
      trialIndex: i,
    });
    trials.push(summarise(t, t.status === 'failed'));
  }
});

const tally = (order: readonly TrialSummary[], keep: number | undefined): Cell => {
  const t = new CellTally(REFS.scenario, REFS.config, REFS, keep);
  for (const trial of order) t.add(trial);
  return t.cell();
};

describe('cell tallies', () => {
  it('the trials under test both pass and fail, with more failures than are kept', () => {
    const failed = trials.filter((t) => t.status === 'failed').length;
    expect(failed).toBeGreaterThan(2);
    expect(failed).toBeLessThan(K);
  });

  it('give the same cell in any arrival order', () => {
    const inOrder = tally(trials, 2);
    expect(inOrder.trials.map((t) => t.trialIndex)).toEqual(
      trials
        .filter((t) => t.status === 'failed')
        .slice(0, 2)
        .map((t) => t.trialIndex),
    );
    expect(inOrder.elided).toBe(trials.filter((t) => t.status === 'failed').length - 2);
    fc.assert(
      fc.property(
        fc.shuffledSubarray(trials, { minLength: K, maxLength: K }),
        fc.constantFrom(undefined, 0, 2, 100),
        (order, keep) => {
          expect(tally(order, keep)).toEqual(tally(trials, keep));
        },
      ),
    );
  });

  it('keep every infra-error trial whatever keepFailures says, in any order and any split (issue 43: not judged, and the report names each to run again)', () => {
    // Every third trial ended infra-error: the provider failed, so it carries no checker verdicts to fail.
    const mixed = trials.map((t, i): TrialSummary => {
      if (i % 3 !== 1) return t;
      const { failed: _, ...rest } = t as Extract<TrialSummary, { status: 'failed' }>;
      return {
        ...rest,
        status: 'infra-error',
        message: 'the model provider failed 1 times (0 retries); last: it answered 503',
      };
    });
    const unjudged = mixed.filter((t) => t.status === 'infra-error').map((t) => t.trialIndex);
    fc.assert(
      fc.property(
        fc.shuffledSubarray(mixed, { minLength: K, maxLength: K }),
        fc.constantFrom(0, 1, 2),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: K, maxLength: K }),
        (order, keep, slices) => {
          const whole = tally(order, keep);
          expect(whole.trials.filter((t) => t.status === 'infra-error').map((t) => t.trialIndex)).toEqual(unjudged);
          expect(whole.trials.filter((t) => t.status === 'failed').length).toBeLessThanOrEqual(keep);
          const merged = new CellTally(REFS.scenario, REFS.config, REFS, keep);
          for (let s = 0; s < 3; s++) {
            const part = order.filter((_, i) => slices[i] === s);
            if (part.length > 0) merged.addCell(tally(part, keep));
          }
          expect(merged.cell()).toEqual(whole);
        },
      ),
      { numRuns: 50, seed: 43 },
    );
  });

  it('merged from any split into slices, give the cell of all the trials', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: K, maxLength: K }),
        fc.constantFrom(undefined, 1, 3),
        (slices, keep) => {
          const merged = new CellTally(REFS.scenario, REFS.config, REFS, keep);
          for (let s = 0; s < 4; s++) {
            const part = trials.filter((_, i) => slices[i] === s);
            if (part.length > 0) merged.addCell(tally(part, keep));
          }
          expect(merged.cell()).toEqual(tally(trials, keep));
        },
      ),
    );
  });
});

describe('mergeRuns', () => {
  let shards: RunResult[];
  beforeAll(async () => {
    const scenarios = await loadScenarios([REFS.scenario, 'payment-quota-exceeded']);
    const configs = await loadConfigs(['naive', 'rulebook']);
    shards = await Promise.all(
      [1, 2, 3].map((index) =>
        runMatrix({ scenarios, configs, k: 4, seed: 9, keepFailures: 1, shard: { index, count: 3 } }),
      ),
    );
  });

  it('puts the shards of a run back together as the run itself, in any order', async () => {
    const scenarios = await loadScenarios([REFS.scenario, 'payment-quota-exceeded']);
    const configs = await loadConfigs(['naive', 'rulebook']);
    const whole = await runMatrix({ scenarios, configs, k: 4, seed: 9, keepFailures: 1 });
    expect(mergeRuns([shards[2]!, shards[0]!, shards[1]!], ['c', 'a', 'b'])).toEqual(whole);
  });

  it('refuses a missing shard, a shard given twice, and a shard of another run', () => {
    expect(() => mergeRuns([shards[0]!, shards[2]!], ['a', 'c'])).toThrow('missing shard 2/3');
    expect(() => mergeRuns([shards[0]!, shards[1]!, shards[0]!], ['a', 'b', 'a2'])).toThrow(
      'a2: shard 1/3 is also in a',
    );
    const other = finishRun({ ...shards[1]!, seed: 10 });
    expect(() => mergeRuns([shards[0]!, other, shards[2]!], ['a', 'b', 'c'])).toThrow(
      'b: a shard of another run than a: seed 10, not 9',
    );
  });

  it('names the shard report whose cell is outside the run, whichever shard and cell it is', () => {
    fc.assert(
      fc.property(
        fc.nat(2),
        fc.constantFrom('scenario', 'config'),
        fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/),
        (at, field, name) => {
          const shard = shards[at]!;
          if (shard.cells.length === 0) return;
          const foreign = { ...shard, cells: [{ ...shard.cells[0]!, [field]: `x-${name}` }, ...shard.cells.slice(1)] };
          const runs = shards.map((s, i) => (i === at ? foreign : s));
          expect(() => mergeRuns(runs, ['s1.json', 's2.json', 's3.json'])).toThrow(
            new RegExp(`^s${at + 1}\\.json: a cell \\S+ × \\S+ outside its own matrix \\(scenarios: `),
          );
        },
      ),
      { numRuns: 10, seed: 43 },
    );
  });
});
