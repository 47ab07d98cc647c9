import type { Gate } from '../stats/gates.js';
import { loadConfigs } from '../scenario/library.js';
import type { ExecutionConfig } from '../runtime/executionConfig.js';
import { prepareModelSource, type ModelMode } from '../scenario/modelSource.js';
import type { Scenario } from '../scenario/scenario.js';
import { checkConfigsApply } from '../runner/notApplicable.js';
import { cellColumns } from '../runner/cellLabel.js';
import { assertPeersInstalled } from '../agent/kinds/optionalPeers.js';
import { isConsoleReporter, type ReporterName } from '../report/write.js';
import type { Io } from './io.js';
import { loadAll } from './loadAll.js';
import { preflight } from './preflight.js';
import { selectScenarios } from './selectScenarios.js';
import type { RunRequest } from './runRequest.js';
import { withBehaviourFlag } from './behaviourFlag.js';

export interface RunInputs {
  readonly scenarios: readonly Scenario[];
  readonly configs: readonly ExecutionConfig[];
  readonly modelMode: ModelMode;
}

/**
 * The scenarios and configurations, checked (peers, preflight) and their model sources ready; undefined when
 * `--last-failed` finds nothing to rerun.
 */
export async function loadRunInputs(
  request: RunRequest,
  gates: readonly Gate[],
  reporters: readonly ReporterName[],
  io: Io,
): Promise<RunInputs | undefined> {
  const origins = request.origins;
  const from =
    origins &&
    ((ref: string): string | undefined => {
      const o = origins.refs.get(ref);
      return o === undefined ? undefined : `${origins.file}: ${o}`;
    });
  const modelMode = request.modelMode ?? 'replay';
  const scenarios = withBehaviourFlag(await selectScenarios(request, from, io), request.behaviour, {
    live: modelMode !== 'replay',
    several: true,
    note: (message) => io.stderr.write(`faultline: ${message}\n`),
  });
  if (scenarios.length === 0) return undefined;
  const configs = await loadAll(request.configs, loadConfigs, 'configuration', from);
  if (request.configsGiven === true) {
    // Refused when asked for on the command line; a config file's retryConfigs are the project's defaults,
    // which a run of only such agents leaves aside with the note.
    const fromFile = origins?.configs === true;
    const note = checkConfigsApply(
      scenarios,
      configs,
      fromFile ? `${origins.file}: retryConfigs` : '--config',
      fromFile,
    );
    if (note !== '') io.stderr.write(`faultline: ${note}\n`);
  }
  await assertPeersInstalled(scenarios, configs);
  await preflight({
    gates,
    k: request.k,
    scenarios,
    // A gate's config= scope names a column: a configuration, or the label of a matrix agent's or a behaviour's cells.
    configs: [...new Set([...configs.map((c) => c.name), ...cellColumns(scenarios, configs)])].map((name) => ({
      name,
    })),
    outDir: request.outDir,
    writesFiles: request.html === true || reporters.some((r) => !isConsoleReporter(r)),
    stepSummary: io.env['GITHUB_STEP_SUMMARY'],
    ...(origins?.gates && { gatesFrom: origins.file }),
    ...(origins?.k && { kFrom: origins.file }),
    ...(origins?.outDir && { outDirFrom: origins.file }),
  });
  for (const s of scenarios) await prepareModelSource(s, modelMode, io.env);
  return { scenarios, configs, modelMode };
}
