import { resolve } from 'node:path';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { plural } from '../report/format.js';
import { loadScenarios, sourceFileOf } from '../scenario/library.js';
import type { ScenarioProject } from '../scenario/project.js';
import type { Scenario } from '../scenario/scenario.js';
import type { ConfigOrigins } from '../config/configOrigins.js';
import { pickByGrep } from './grepScenarios.js';
import type { Io } from './io.js';
import { loadAll } from './loadAll.js';

/** What of a run's request picks its scenarios (see `RunRequest`). */
export interface ScenarioSelection {
  readonly scenarios: readonly string[];
  readonly grep?: RegExp;
  readonly outDir: string;
  readonly origins?: ConfigOrigins;
  readonly lastFailed?: boolean;
  readonly scenariosTyped?: boolean;
  readonly outDirTyped?: boolean;
  readonly onlyFiles?: readonly string[];
  /** The config file's `defaults` and `agents`, applied to every scenario loaded. */
  readonly project?: ScenarioProject;
}

/**
 * The scenarios a run or compare runs: its refs loaded, then narrowed by `--grep`, by
 * `--last-failed` (the failing cells of the last report) and by the files a watching faultline
 * names. Empty, with a line on stdout saying why, when there is nothing to rerun.
 */
export async function selectScenarios(
  request: ScenarioSelection,
  from: ((ref: string) => string | undefined) | undefined,
  io: Io,
): Promise<Scenario[]> {
  const origins = request.origins;
  let refs = request.scenarios;
  let onlyNames: ReadonlySet<string> | undefined;
  if (request.lastFailed === true) {
    // Loaded only here: the JSON report's reader is no part of any other run.
    const { readLastFailed } = await import('./lastFailed.js');
    const last = await readLastFailed(
      request.outDir,
      origins?.outDir ? `${origins.file}: outDir` : request.outDirTyped === true ? '--out' : 'the default',
    );
    if (last.scenarios.length === 0) {
      io.stdout.write(
        `--last-failed: nothing failed in ${last.report} (${plural(last.cells, 'cell')}, every one passed); nothing to rerun\n`,
      );
      return [];
    }
    onlyNames = new Set(last.scenarios.map((s) => s.name));
    // No scenario typed: the report names them, so the rerun needs no more than the flag.
    if (request.scenariosTyped !== true) refs = last.scenarios.map((s) => s.ref);
  }
  // Refs the report named came from no config file entry.
  const loaded = pickByGrep(
    await loadAll(
      refs,
      (r) => loadScenarios(r, request.project),
      'scenario',
      refs === request.scenarios ? from : undefined,
    ),
    request.grep,
  );
  const onlyFiles = request.onlyFiles && new Set(request.onlyFiles);
  const scenarios = loaded.filter(
    (s) =>
      (onlyNames === undefined || onlyNames.has(s.name)) &&
      (onlyFiles === undefined || onlyFiles.has(resolve(sourceFileOf(s) ?? ''))),
  );
  if (scenarios.length === 0) {
    // Only a narrowing flag may leave nothing to run; an empty selection otherwise is bad input, not a pass.
    if (onlyNames === undefined && onlyFiles === undefined)
      throw new FaultlineError(FaultlineErrorCode.Usage, `no scenario to run in ${refs.join(', ')}`);
    io.stdout.write(
      onlyNames === undefined
        ? '--watch: none of the changed files holds a scenario of this run now; nothing to rerun\n'
        : `--last-failed: none of the scenarios given failed last time (failed: ${[...onlyNames].join(', ')}); nothing to rerun\n`,
    );
    return [];
  }
  // Each scenario once: a matrix scenario loads once per agent, under one name.
  const names = [...new Set(scenarios.map((s) => s.name))];
  if (onlyNames !== undefined)
    io.stderr.write(
      `faultline: --last-failed reruns ${names.length === 1 ? 'scenario' : `${names.length} scenarios`}: ${names.join(', ')}\n`,
    );
  return scenarios;
}
