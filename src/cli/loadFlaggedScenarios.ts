import { loadScenarios } from '../scenario/library.js';
import type { ScenarioProject } from '../scenario/project.js';
import type { Scenario } from '../scenario/scenario.js';
import { withBehaviourFlag } from './behaviourFlag.js';
import { pickByGrep } from './grepScenarios.js';
import type { Io } from './io.js';
import { loadAll } from './loadAll.js';

/** What `explore` and `sweep` say of their scenarios: the files or names, the project, `--grep`, one `--behaviour`. */
export interface ScenarioFlags {
  readonly scenarios: readonly string[];
  readonly project?: ScenarioProject;
  readonly grep?: RegExp;
  readonly behaviour?: readonly string[];
}

/** The scenarios a command names, narrowed by `--grep`, each under the `--behaviour` given (a note on stderr where one is moot). */
export async function loadFlaggedScenarios(request: ScenarioFlags, io: Io): Promise<Scenario[]> {
  return withBehaviourFlag(
    pickByGrep(
      await loadAll(request.scenarios, (refs) => loadScenarios(refs, request.project), 'scenario'),
      request.grep,
    ),
    request.behaviour,
    { note: (message) => io.stderr.write(`faultline: ${message}\n`) },
  );
}
