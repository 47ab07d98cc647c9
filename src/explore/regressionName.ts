import { canonicalJson, sha256 } from '../core/index.js';
import type { FaultPlan } from '../faults/plan.js';
import type { ExecutionConfigLike } from '../runtime/executionConfig.js';
import { matrixAgentOf } from '../scenario/library.js';
import type { Scenario } from '../scenario/scenario.js';
import type { ScenarioCrash } from '../scenario/agentCrash.js';
import type { ScenarioOverride } from '../scenario/scenarioOverride.js';

/**
 * `<scenario>-regression-<hash>`, the hash of the configuration and the seed: every plan of one
 * exploration runs under this name, so under one trial seed (it is hashed from the scenario's
 * name). Were the name to change with the plan, removing a rule that never fires would change
 * every probability's draw, and shrinking would stop early.
 */
export function regressionName(scenario: Scenario, config: ExecutionConfigLike, seed: number): string {
  return `${scenario.name}-regression-${sha256(canonicalJson({ config: config.name, seed })).slice(0, 8)}`;
}

/**
 * The regression file's name: `<scenario>-regression-<hash>`, the hash of the configuration, the
 * seed, the plan's rules (and crash point) and the checks the search judged by, so two plans never
 * share a file. Its trials keep the search's seed through `seedName` (see `regressionName`).
 */
export function regressionFileName(
  scenario: Scenario,
  config: ExecutionConfigLike,
  seed: number,
  faults: FaultPlan,
  checks: readonly string[],
  crash?: ScenarioCrash | null,
): string {
  // One scenario file runs under each agent of a matrix: two agents' plans never share a file.
  const agent = matrixAgentOf(scenario)?.name;
  const key = canonicalJson({
    config: config.name,
    seed,
    faults,
    checks,
    ...(agent !== undefined && { agent }),
    // A plan with a crash point (or none, in place of the scenario's own) names it; plans without keep their names.
    ...(crash !== undefined && { crash }),
  });
  return `${scenario.name}-regression-${sha256(key).slice(0, 8)}`;
}

/**
 * A shrunk plan as its regression scenario: named after its content (and the checks the search judged by), its trials
 * seeded as the search's were.
 */
export function regressionOverride(
  scenario: Scenario,
  config: ExecutionConfigLike,
  seed: number,
  judged: readonly string[],
  searched: ScenarioOverride,
): ScenarioOverride {
  return {
    ...searched,
    name: regressionFileName(scenario, config, seed, searched.faults ?? [], judged, searched.crash),
    seedName: searched.name ?? scenario.name,
  };
}
