import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { FaultlineError, FaultlineErrorCode } from '../core/index.js';
import { Cassette, type CassetteTrial } from '../model/api/Cassette.js';
import { openSecrets } from '../model/api/cassetteSecrets.js';
import type { RecordedModelSource } from '../model/api/recordedService.js';
import { sourceFileOf } from './library.js';
import type { Scenario } from './scenario.js';

/**
 * Where a scenario's model answers come from in a run: `replay` (the default) answers from its
 * cassette when it has one, else from the scripted plan; `live` sends every request to the real
 * endpoint through the run's gateway, recording each trial's exchanges; `record` is a live run
 * that also writes the scenario's cassette from those recordings.
 */
export const MODEL_MODES = ['replay', 'record', 'live'] as const;
export type ModelMode = (typeof MODEL_MODES)[number];

/** The environment variable each API's key is read from (only for `record` and `live`). */
export const API_KEY_ENV = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' } as const;

interface Prepared {
  readonly mode: ModelMode;
  /** The cassette read from (replay), and its file. */
  readonly cassette?: { readonly file: string; readonly cassette: Cassette };
  /** The cassette written at the end of a `record` run. */
  readonly recordTo?: string;
}

const prepared = new WeakMap<Scenario, Prepared>();

/** The scenario's cassette file: `model.cassette` from the scenario's folder, else `<scenario>.cassette.json` beside it. */
export function cassetteFileOf(scenario: Scenario): string | undefined {
  const source = sourceFileOf(scenario);
  const named = scenario.model?.cassette;
  if (source === undefined) return named === undefined ? undefined : resolve(named);
  if (named !== undefined) return resolve(dirname(source), named);
  return join(dirname(source), `${basename(source, extname(source))}.cassette.json`);
}

/**
 * Reads a cassette file; `named` is how messages name it (the file, or the flag and the file).
 * Absent is `undefined` (a scenario's default cassette may not exist); anything else that is not
 * a readable cassette fails here, before any trial: a folder, a FIFO or device (a read would
 * block or give nothing), an unreadable or empty file, bad JSON, a wrong shape.
 */
async function readCassette(file: string, named = file): Promise<Cassette | undefined> {
  let text: string;
  try {
    const kind = await stat(file);
    if (kind.isDirectory())
      throw new FaultlineError(
        FaultlineErrorCode.NotFound,
        `${named}: a folder; expected a cassette file (written by faultline run --record)`,
      );
    if (!kind.isFile())
      throw new FaultlineError(
        FaultlineErrorCode.NotFound,
        `${named}: not a regular file (a FIFO, a socket or a device); expected a cassette file`,
      );
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof FaultlineError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new FaultlineError(
      FaultlineErrorCode.NotFound,
      `${named}: cannot read the cassette (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  if (text.trim() === '')
    throw new FaultlineError(
      FaultlineErrorCode.ScenarioInvalid,
      `${named}: the file is empty; expected a cassette (JSON written by faultline run --record)`,
    );
  return Cassette.parse(text, named);
}

/**
 * Checks a cassette a flag names (`replay --cassette`) before any trial, and returns its absolute
 * path: an empty value, a file that is not there or is no cassette, or one recorded from another
 * API than the scenario's model is refused naming the flag and what is wrong. Its `trial` says
 * whose recording it is (and whether that trial was judged).
 */
export async function checkCassetteFlag(
  scenario: Scenario,
  value: string,
  flag = '--cassette',
): Promise<{ readonly file: string; readonly trial?: CassetteTrial }> {
  if (value.trim() === '')
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `${flag}: an empty path; expected a cassette file (a live trial's recording, or a scenario's cassette)`,
    );
  const file = resolve(value);
  const cassette = await readCassette(file, `${flag} ${file}`);
  if (cassette === undefined) throw new FaultlineError(FaultlineErrorCode.NotFound, `${flag} ${file}: no such file`);
  if (scenario.model && cassette.api !== scenario.model.api) {
    throw new FaultlineError(
      FaultlineErrorCode.ScenarioInvalid,
      `${flag} ${file}: the cassette was recorded from the ${cassette.api} API, but ${scenario.name}'s ` +
        `model.api is "${scenario.model.api}"`,
    );
  }
  return { file, ...(cassette.trial && { trial: cassette.trial }) };
}

/**
 * Decides, once per scenario and run, where its model answers come from, and reads its cassette.
 * Bad input fails here, before any trial: a missing key, a named cassette that is not there, a
 * cassette for the other API, a model with neither plan nor cassette.
 */
export async function prepareModelSource(
  scenario: Scenario,
  mode: ModelMode,
  env: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  const model = scenario.model;
  if (!model) return;
  const file = cassetteFileOf(scenario);
  const where = sourceFileOf(scenario) ?? scenario.name;
  if (mode !== 'replay') {
    const name = API_KEY_ENV[model.api];
    const apiKey = env[name];
    if (apiKey === undefined || apiKey === '') {
      throw new FaultlineError(
        FaultlineErrorCode.Usage,
        `${where}: --${mode} sends the model requests to ${model.baseUrl ?? `the ${model.api} API`}, ` +
          `and needs its key in ${name}, which is not set`,
      );
    }
    if (mode === 'record' && file === undefined) {
      throw new FaultlineError(
        FaultlineErrorCode.Usage,
        `${where}: --record needs a place for the cassette: load the scenario from a file, or name one in model.cassette`,
      );
    }
    prepared.set(scenario, { mode, ...(mode === 'record' && file !== undefined && { recordTo: file }) });
    return;
  }
  const read = file === undefined ? undefined : await readCassette(file);
  // Written with the scenario's secrets sealed (cassetteSecrets.ts): the replay sends them again.
  const cassette = read && openSecrets(read, scenario.secrets);
  if (cassette && cassette.api !== model.api) {
    throw new FaultlineError(
      FaultlineErrorCode.ScenarioInvalid,
      `${file}: the cassette was recorded from the ${cassette.api} API, but model.api is "${model.api}"`,
    );
  }
  if (!cassette && model.cassette !== undefined) {
    throw new FaultlineError(
      FaultlineErrorCode.NotFound,
      `${where}: model.cassette: ${file}: no such file (record it with faultline run --record)`,
    );
  }
  if (!cassette && !model.plan) {
    throw new FaultlineError(
      FaultlineErrorCode.ScenarioInvalid,
      `${where}: model: neither a plan nor a cassette (${file ?? 'none'}): give model.plan, or record ` +
        `a cassette with faultline run --record`,
    );
  }
  prepared.set(scenario, { mode, ...(cassette && file !== undefined ? { cassette: { file, cassette } } : {}) });
}

/** Where a live run's model requests go (its gateway, in the run's main thread) and where each trial's recording is written. */
export interface LiveRun {
  readonly gateway: string;
  readonly recordDir: string;
}

let liveRun: LiveRun | undefined;

/**
 * Sends every model request of this thread's trials to a live run's gateway (the main thread
 * and each worker of a `--live` run set it), or stops doing so (`undefined`).
 */
export function useLiveRun(live: LiveRun | undefined): void {
  liveRun = live;
}

/** The live run this thread's trials belong to, if any. */
export const currentLiveRun = (): LiveRun | undefined => liveRun;

/** What a trial hears from its model source: a cassette miss; under `--live`, the provider failing for good, and who the trial is. */
export interface ModelSourceHooks {
  readonly onMiss: (message: string) => void;
  readonly onInfraError?: (message: string) => void;
  readonly trial?: CassetteTrial;
}

/**
 * Where one trial's model answers come from: a recorded source, or `undefined` for the scripted
 * plan. A scenario no command prepared (a replay, a library call) replays its cassette if it has one.
 * In a live run, the gateway, with a fresh recording for the trial.
 */
export async function modelSourceFor(
  scenario: Scenario,
  hooks: ModelSourceHooks | ((message: string) => void),
): Promise<RecordedModelSource | undefined> {
  const { onMiss, onInfraError, trial } =
    typeof hooks === 'function' ? { onMiss: hooks, onInfraError: undefined, trial: undefined } : hooks;
  if (liveRun !== undefined && scenario.model) {
    const recording = new Cassette(
      scenario.model.api,
      [],
      trial ?? { scenario: scenario.name, config: '', trialIndex: 0, seed: 0 },
    );
    return { kind: 'gateway', gateway: liveRun.gateway, recording, onInfraError: onInfraError ?? onMiss };
  }
  if (!prepared.has(scenario)) await prepareModelSource(scenario, 'replay', {});
  const p = prepared.get(scenario)!;
  // The gateway holds the key, the connection limit and the retries: there is no other way to the model.
  if (p.mode !== 'replay')
    throw new FaultlineError(
      FaultlineErrorCode.Internal,
      `${scenario.name}: a --${p.mode} trial ran outside its run's live gateway`,
    );
  return p.cassette ? { kind: 'cassette', cassette: p.cassette.cassette, file: p.cassette.file, onMiss } : undefined;
}

/** One trial's recording file (written beside the report), and who the trial was. */
export interface TrialRecording {
  readonly scenario: string;
  readonly config: string;
  readonly trialIndex: number;
  readonly file: string;
}

/**
 * Writes each `--record` scenario's cassette from its trials' recordings (whole, through a
 * temporary file): every distinct request with the first answer it got, configurations in the
 * run's order and trials in index order, so the same recordings give the same file. Returns the
 * paths written; a scenario none of whose trials got an answer keeps the cassette it had.
 */
export async function saveRecordings(
  scenarios: readonly Scenario[],
  configOrder: readonly string[],
  recordings: readonly TrialRecording[],
): Promise<string[]> {
  const written: string[] = [];
  for (const scenario of scenarios) {
    const file = prepared.get(scenario)?.recordTo;
    if (file === undefined || !scenario.model) continue;
    const mine = recordings
      .filter((r) => r.scenario === scenario.name)
      .sort((a, b) => configOrder.indexOf(a.config) - configOrder.indexOf(b.config) || a.trialIndex - b.trialIndex);
    const cassette = new Cassette(scenario.model.api);
    for (const r of mine)
      for (const entry of Cassette.parse(await readFile(r.file, 'utf8'), r.file).entries) cassette.add(entry);
    if (cassette.entries.length === 0) continue;
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, `${JSON.stringify(cassette.toJSON(), null, 2)}\n`);
    await rename(temp, file);
    written.push(file);
  }
  return written;
}
