import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { DEFAULT_CONFIG, loadConfigs, loadScenarios, matrixAgentOf } from '../scenario/library.js';
import { readProjectConfig } from '../config/readProjectConfig.js';
import { expandRef } from '../scenario/expandRef.js';
import { runMatrix, type Cell } from '../runner/run.js';
import type { Scenario } from '../scenario/scenario.js';
import type { RetryConfig } from '../runtime/config.js';
import type { ExecutionConfig, ExecutionConfigLike } from '../runtime/executionConfig.js';

/** A scenario as a test names it: a `defineScenario` value, a file, a folder, a glob or a built-in name. */
export type ScenarioRef = Scenario | string;
/** A retry configuration as a test names it: a value, a file or a built-in name (`rulebook`, `naive`…). */
export type RetryConfigRef = RetryConfig | ExecutionConfig | string;

export interface ScenarioRunOptions {
  /** The retry configuration to run under (default: `rulebook`). */
  readonly retryConfig?: RetryConfigRef;
  /** Trials (default 4). */
  readonly k?: number;
  /** The run seed (default 1); every failure message carries it in its replay command. */
  readonly seed?: number;
}

/**
 * Files, folders, globs and names are read from the working folder, as the CLI reads them, with
 * the `defaults` and `agents` of the working folder's faultline.config.ts filled in as `run` fills
 * them (a file under an agents matrix loads once per agent). A `defineScenario` value is taken as it is.
 */
export async function resolveScenarios(refs: readonly ScenarioRef[]): Promise<Scenario[]> {
  const project = refs.some((r) => typeof r === 'string')
    ? (await readProjectConfig(undefined, undefined))?.project
    : undefined;
  const out: Scenario[] = [];
  for (const ref of refs) {
    if (typeof ref !== 'string') {
      out.push(ref);
      continue;
    }
    const files = await expandRef(ref, process.cwd());
    if (files.length === 0)
      throw new FaultlineError(FaultlineErrorCode.NotFound, `the pattern "${ref}" matches no scenario file`);
    out.push(...(await loadScenarios(files, project)));
  }
  return out;
}

export async function resolveConfigs(refs: readonly RetryConfigRef[]): Promise<ExecutionConfigLike[]> {
  const out: ExecutionConfigLike[] = [];
  for (const ref of refs.length === 0 ? [DEFAULT_CONFIG] : refs)
    out.push(...(typeof ref === 'string' ? await loadConfigs([ref]) : [ref]));
  return out;
}

/**
 * Runs one scenario k times under one retry configuration, exactly as `faultline run` would,
 * and returns the cell (its trials and metrics) for the `faultline/vitest` matchers.
 * @example
 * const run = await runScenario('order-partial-write-idempotent', { retryConfig: 'naive', k: 8 });
 * expect(run).toHaveNoDuplicateEffects();
 */
export async function runScenario(scenario: ScenarioRef, options: ScenarioRunOptions = {}): Promise<Cell> {
  const scenarios = await resolveScenarios([scenario]);
  if (scenarios.length !== 1) {
    const agents = scenarios.flatMap((s) => matrixAgentOf(s)?.name ?? []);
    const why =
      agents.length > 0
        ? ` (it runs under each agent of faultline.config.ts: ${agents.join(', ')}; describeScenarios runs them all)`
        : '';
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `runScenario takes one scenario; "${String(scenario)}" holds ${scenarios.length}${why}`,
    );
  }
  const configs = await resolveConfigs(options.retryConfig === undefined ? [] : [options.retryConfig]);
  if (configs.length !== 1)
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `runScenario takes one retry configuration, got ${configs.length}`,
    );
  return runCell(scenarios[0]!, configs[0]!, options.k ?? 4, options.seed ?? 1);
}

export async function runCell(scenario: Scenario, config: ExecutionConfigLike, k: number, seed: number): Promise<Cell> {
  const run = await runMatrix({ scenarios: [scenario], configs: [config], k, seed });
  return run.cells[0]!;
}
