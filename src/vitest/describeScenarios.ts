import { expect, it } from 'vitest';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import type { Cell } from '../runner/run.js';
import { cellLabeller, cellRuns } from '../runner/cellLabel.js';
import { checkConfigsApply } from '../runner/notApplicable.js';
import { callerSite, failureAt } from './callerSite.js';
import { resolveConfigs, resolveScenarios, runCell, type RetryConfigRef, type ScenarioRef } from './runScenario.js';

export interface DescribeScenariosOptions {
  /** Retry configurations, each a test per scenario (default: `rulebook`); the key `faultline.config.ts` uses. */
  readonly retryConfigs?: readonly RetryConfigRef[];
  /** Trials per test (default 4). */
  readonly k?: number;
  /** The run seed (default 1). */
  readonly seed?: number | 'random';
  /** Per-test timeout in ms, for scenarios whose agents do real work (default: vitest's). */
  readonly timeout?: number;
}

/** What `faultline run`'s default gates judge of a cell, as the matchers say it. */
const DEFAULT_GATES: readonly ((cell: Cell, k: number) => void)[] = [
  (cell, k) => expect(cell).toHavePassK(k, 1),
  (cell) => expect(cell).toHaveNoDuplicateEffects(),
  (cell) => expect(cell).toStayWithinBudget(),
  (cell) => expect(cell).toExerciseEveryFault(),
];

/**
 * Scenarios as vitest tests: a test per scenario and retry configuration, named
 * `scenario › configuration (k = 4, seed 1)` (with an agents matrix in faultline.config.ts, a
 * test per agent, named as `faultline run` labels its cells: `scenario › openai (k = 4, seed 1)`), each running the
 * scenario k times and asserting
 * what `faultline run`'s default gates do (pass^k = 1, no duplicate effects, within budget,
 * every fault rule fired). Every gate is judged, so one failure shows all that failed, with
 * the verdicts, their evidence and the replay command, at the line that called
 * `describeScenarios`. Await it at the top of a test file (the scenarios load before vitest
 * collects the tests).
 * @example
 * import { describeScenarios } from 'faultline/vitest';
 * await describeScenarios(['faultline/**\/*.scenario.ts'], { retryConfigs: ['rulebook'], k: 8 });
 */
export async function describeScenarios(
  scenarios: readonly ScenarioRef[],
  options: DescribeScenariosOptions = {},
): Promise<void> {
  // Before the first await: later, the caller's frame is no longer on the stack.
  const site = callerSite();
  if (scenarios.length === 0)
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      'describeScenarios: name at least one scenario (a file, folder, glob, built-in name or defineScenario value)',
    );
  const [loaded, configs] = await Promise.all([
    resolveScenarios(scenarios),
    resolveConfigs(options.retryConfigs ?? []),
  ]);
  // Refused as `faultline run --config` refuses it: configurations no agent would use are not tests to skip quietly.
  if (options.retryConfigs !== undefined && options.retryConfigs.length > 0) {
    checkConfigsApply(loaded, configs, 'describeScenarios: retryConfigs');
  }
  const k = options.k ?? 4;
  // A random seed is drawn once per file, so every test of it shares the seed its replay commands print.
  const seed = options.seed === 'random' ? randomSeed() : (options.seed ?? 1);
  // Labelled and skipped as `faultline run` labels and skips cells: by agent when faultline.config.ts has an agents matrix.
  const label = cellLabeller(loaded, configs);
  const runs = cellRuns(loaded);
  for (const [si, scenario] of loaded.entries()) {
    for (const [ci, config] of configs.entries()) {
      if (!runs(si, ci)) continue;
      // `›`, not `×`: vitest marks a failed test with its own `×`.
      it(
        `${scenario.name} › ${label(scenario, config.name)} (k = ${k}, seed ${seed})`,
        { ...(options.timeout !== undefined && { timeout: options.timeout }) },
        async () => {
          const cell = await runCell(scenario, config, k, seed);
          const failures: Error[] = [];
          for (const gate of DEFAULT_GATES) {
            try {
              gate(cell, k);
            } catch (error) {
              failures.push(error instanceof Error ? error : new Error(String(error)));
            }
          }
          if (failures.length > 0) throw failureAt(failures, site);
        },
      );
    }
  }
}

const randomSeed = (): number => crypto.getRandomValues(new Uint32Array(1))[0]! >>> 1;
