import { describe, expect, it } from 'vitest';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
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

/**
 * Scenarios as vitest tests: a `describe` per scenario and an `it` per retry configuration,
 * each running the scenario k times and asserting what `faultline run`'s default gates do
 * (pass^k = 1, no duplicate effects, within budget), softly, so one failure shows all three.
 * Every failure message carries the verdicts, their evidence and the replay command. Await it
 * at the top of a test file (the scenarios load before vitest collects the tests).
 * @example
 * import { describeScenarios } from 'faultline/vitest';
 * await describeScenarios(['faultline/**\/*.scenario.ts'], { retryConfigs: ['rulebook'], k: 8 });
 */
export async function describeScenarios(scenarios: readonly ScenarioRef[], options: DescribeScenariosOptions = {}): Promise<void> {
  if (scenarios.length === 0) throw new FaultlineError(FaultlineErrorCode.Usage, 'describeScenarios: name at least one scenario (a file, folder, glob, built-in name or defineScenario value)');
  const [loaded, configs] = await Promise.all([resolveScenarios(scenarios), resolveConfigs(options.retryConfigs ?? [])]);
  const k = options.k ?? 4;
  // A random seed is drawn once per file, so every test of it shares the seed its replay commands print.
  const seed = options.seed === 'random' ? randomSeed() : (options.seed ?? 1);
  for (const scenario of loaded) {
    describe(scenario.name, () => {
      for (const config of configs) {
        it(`× ${config.name} (k = ${k}, seed ${seed})`, { ...(options.timeout !== undefined && { timeout: options.timeout }) }, async () => {
          const cell = await runCell(scenario, config, k, seed);
          expect.soft(cell).toHavePassK(k, 1);
          expect.soft(cell).toHaveNoDuplicateEffects();
          expect.soft(cell).toStayWithinBudget();
          expect.soft(cell).toExerciseEveryFault();
        });
      }
    });
  }
}

const randomSeed = (): number => crypto.getRandomValues(new Uint32Array(1))[0]! >>> 1;
