/** What the golden tests pin: each whole trial result by a short hash of its JSON. */
import { createHash } from 'node:crypto';
import { defineScenario, type ScenarioInput } from '../../src/scenario/scenario.js';
import { runTrial } from '../../src/runner/trial.js';
import type { ExecutionConfig } from '../../src/runtime/executionConfig.js';

export const hashOf = (value: unknown): string =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

/** Each case under each configuration and seed (trial 0), keyed `case × config × seed n`. */
export async function hashTrials(
  cases: Record<string, ScenarioInput>,
  configs: readonly ExecutionConfig[],
  seeds: readonly number[],
): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const [label, input] of Object.entries(cases)) {
    const scenario = defineScenario(input);
    for (const config of configs)
      for (const runSeed of seeds)
        hashes[`${label} × ${config.name} × seed ${runSeed}`] = hashOf(
          await runTrial({ scenario, config, runSeed, trialIndex: 0 }),
        );
  }
  return hashes;
}
