/**
 * A worker thread's side of the pool: loads the run's scenarios by path through the CLI's own
 * loader, then runs one trial per request with the same `runTrial` the main thread uses.
 * Whatever the agent's code does to this thread (exits, throws in a timer, rejects without a
 * handler, leaves timers behind, changes globals) is reported against the trial it was running.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isFaultlineError } from '../../core/errors.js';
import { loadScenarioFile, loadScenarioVariants, matrixAgentOf } from '../../scenario/library.js';
import { reloadProject } from '../../scenario/project.js';
import type { Scenario } from '../../scenario/scenario.js';
import { withAddedFaults } from '../../scenario/addedFaults.js';
import { withOverride, type ScenarioOverride } from '../../scenario/scenarioOverride.js';
import { runTrialSummary, type LiveTrial, type PartialTrial, type TrialSummary } from '../trial.js';
import { resourceCounts, settledLeftovers } from './leftovers.js';
import {
  describeThrown,
  type TrialAnswer,
  type TrialBatch,
  type TrialRequest,
  type WorkerMessage,
  type WorkerSetup,
} from './protocol.js';
import { GlobalsWatch } from './globalsFingerprint.js';
import { runsUserCode } from '../../agent/kinds/runsUserCode.js';
import { useLiveRun } from '../../scenario/modelSource.js';
import { recordingFile } from '../trial/recordingFile.js';

const port = parentPort!;
const setup = workerData as WorkerSetup;
const post = (message: WorkerMessage): void => port.postMessage(message);
useLiveRun(setup.live);
// A live run's recordings are written beside its report, from the worker that ran the trial.
const keepRecording = setup.live && recordingFile(setup.live.recordDir);

let current: number | undefined;
/** Answers of the batch in progress, sent together when its last trial is done (or before a fatal message). */
let answered: TrialAnswer[] = [];
const flush = (): void => {
  if (answered.length === 0) return;
  const results = answered;
  answered = [];
  post({ type: 'results', results });
};
/** The trial this thread ran last (or is running): what it did goes with a fatal message. */
let live: LiveTrial | undefined;
const exit: (code: number) => never = process.exit.bind(process);

/** What the last trial did so far; the world's state is left out when the agent broke what taking it needs. */
function partialOf(): PartialTrial | undefined {
  if (live === undefined) return undefined;
  const history = [...live.history.events];
  try {
    return { history, snapshot: live.snapshot() };
  } catch {
    return { history };
  }
}

/** Reports the trial in progress as lost, with what it did so far, then ends this thread; the pool starts a fresh one. */
function fatal(reason: string): never {
  // The trials of the batch that finished are judged: only the one in progress is lost.
  try {
    flush();
  } catch {
    answered = [];
  }
  const partial = current === undefined ? undefined : partialOf();
  try {
    post({ type: 'fatal', id: current, reason, ...(partial && { partial }) });
  } catch {
    // Something in the history cannot be copied to the main thread: the reason alone still can.
    post({ type: 'fatal', id: current, reason });
  }
  exit(70);
}

process.on('uncaughtException', (error) => fatal(`uncaught exception: ${describeThrown(error)}`));
process.on('unhandledRejection', (reason) => fatal(`unhandled promise rejection: ${describeThrown(reason)}`));
// In a worker, process.exit ends only this thread (Node's worker semantics); say who called it.
process.exit = ((code?: number | string | null) =>
  fatal(`the agent called process.exit(${code ?? ''})`)) as typeof process.exit;

/** Failing histories sent per cell (`scenario/config` indices), against `setup.keepFailures`. */
const historiesSent = new Map<string, number>();

function withHistory(request: TrialRequest, status: TrialSummary['status']): boolean {
  if (setup.keepFailures === null) return true;
  if (status === 'passed') return false;
  const cell = `${request.scenario}/${request.config}`;
  const sent = historiesSent.get(cell) ?? 0;
  if (sent >= setup.keepFailures) return false;
  historiesSent.set(cell, sent + 1);
  return true;
}

/** Runs one trial and answers; resolves to false when this worker must run no other (its globals changed). */
async function runOne(
  request: TrialRequest,
  scenarios: readonly Scenario[],
  globals: GlobalsWatch | undefined,
): Promise<boolean> {
  current = request.id;
  if (setup.progress) Atomics.store(setup.progress, 0, request.id);
  live = undefined;
  const resources = resourceCounts();
  // Summarised before it is scrubbed, as a run in process does: the history a passing trial drops is never scanned for secrets.
  const summary = await runTrialSummary(
    {
      scenario: withOverride(scenarios[request.scenario]!, request.override),
      config: setup.configs[request.config]!,
      runSeed: setup.runSeed,
      trialIndex: request.trialIndex,
      refs: request.refs,
      ...(keepRecording && { keepRecording }),
      watch: (trial) => {
        live = trial;
        if (setup.stream === true)
          trial.history.onRecord((event) =>
            post({
              type: 'progress',
              id: request.id,
              event,
              ...(event.type === 'effect' && { snapshot: trial.snapshot() }),
            }),
          );
      },
    },
    (status) => withHistory(request, status),
  );
  const left = await settledLeftovers(resources);
  // A timer left running would fire into the next trial on this thread: it belongs to this one.
  if (left.timers > 0)
    fatal(
      `the agent left ${left.timers === 1 ? 'a timer' : `${left.timers} timers`} running after its ` +
        `trial ended (a setInterval or setTimeout never cleared)`,
    );
  const retire = globals?.changed() ?? (left.other.length > 0 ? `left ${left.other.join(', ')} open` : undefined);
  current = undefined;
  live = undefined;
  answered.push({ id: request.id, trial: summary, ...(retire !== undefined && { retire }) });
  return retire === undefined;
}

/** The variant of scenario `i` the run asked for (`--behaviour`), if any. */
const asked = (i: number): ScenarioOverride | undefined => setup.scenarioOverrides?.[i] ?? undefined;

async function start(): Promise<void> {
  let scenarios: Scenario[];
  try {
    scenarios = [];
    for (const [i, file] of setup.scenarioFiles.entries()) {
      const ref = setup.scenarioProjects?.[i] ?? null;
      if (ref === null) {
        scenarios.push(withAddedFaults(withOverride(await loadScenarioFile(file), asked(i)), setup.addedFaults));
        continue;
      }
      const variants = await loadScenarioVariants(file, await reloadProject(ref.file, ref.pick));
      const scenario = variants.find((v) => matrixAgentOf(v)?.name === ref.agent) ?? variants[0];
      if (scenario === undefined)
        throw new Error(`${file}: no scenario for agent ${ref.agent ?? '(none)'} in ${ref.file}`);
      scenarios.push(withAddedFaults(withOverride(scenario, asked(i)), setup.addedFaults));
    }
  } catch (error) {
    post({
      type: 'setup_failed',
      message: describeThrown(error),
      ...(isFaultlineError(error) && { code: error.code }),
    });
    return;
  }
  // Taken once the scenarios are loaded: whatever their modules set up is this worker's normal. Only code of the
  // user's can change globals: scripted agents on built-in services are not watched (≈ 23 µs a trial).
  const globals = runsUserCode(scenarios) ? new GlobalsWatch() : undefined;
  // The pool sends the next batch before this one is answered (no idle round trip); trials run one at a time, in order,
  // and a batch is answered when its last trial is done (a trial that retires the worker is the last it runs).
  const queue: TrialBatch[] = [];
  let running = false;
  let retired = false;
  const next = async (): Promise<void> => {
    running = true;
    for (let batch = queue.shift(); batch !== undefined && !retired; batch = queue.shift()) {
      for (const request of batch.trials) {
        retired = !(await runOne(request, scenarios, globals));
        if (retired) break;
      }
      flush();
    }
    running = false;
  };
  port.on('message', (batch: TrialBatch) => {
    queue.push(batch);
    if (!running) next().catch((error: unknown) => fatal(`the trial threw: ${describeThrown(error)}`));
  });
  post({ type: 'ready' });
}

await start();
