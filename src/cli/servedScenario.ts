import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { loadScenarios } from '../scenario/library.js';
import type { Scenario } from '../scenario/scenario.js';
import { readProjectConfig } from '../config/readProjectConfig.js';

/**
 * The one scenario `serve` and `mcp-serve` serve, with the project's `defaults` filled in as
 * `run` fills them; its `agent` block may be left out. The client is the agent: the variants of a matrix scenario differ only in
 * the agent faultline would run, so the first serves for all of them.
 */
export async function servedScenario(ref: string, configFile: string | undefined, command: string): Promise<Scenario> {
  const project = (await readProjectConfig(configFile, undefined))?.project;
  const loaded = await loadScenarios([ref], project, true);
  const scenarios = loaded.filter((s, i) => loaded.findIndex((o) => o.name === s.name) === i);
  const scenario = scenarios[0];
  if (scenario === undefined || scenarios.length > 1) {
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `${command} takes one scenario; "${ref}" holds ${scenarios.length} (${scenarios.map((s) => s.name).join(', ')})`,
    );
  }
  return scenario;
}
