import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { impossibleGates, type Gate } from '../stats/gates.js';
import { assertAppendable, assertWritableFolder } from './outputPaths.js';

export interface Preflight {
  readonly gates: readonly Gate[];
  readonly k: number;
  readonly scenarios: readonly { readonly name: string }[];
  readonly configs: readonly { readonly name: string }[];
  readonly outDir: string;
  /** False when only the console report was asked for: then no folder is needed. */
  readonly writesFiles: boolean;
  /** `GITHUB_STEP_SUMMARY`, when set: the Markdown summary is appended to it after the run. */
  readonly stepSummary?: string | undefined;
  /** The config file the gates came from (not `--gate`): refusals name it and the key. */
  readonly gatesFrom?: string;
  /** The config file k came from (not `--k`). */
  readonly kFrom?: string;
  /** The config file `outDir` came from (not `--out`). */
  readonly outDirFrom?: string;
}

/**
 * Everything about a run that can be refused before its first trial, once the files have
 * loaded: gates that can never hold, and an output folder the reports could not be written to.
 */
export async function preflight(p: Preflight): Promise<void> {
  const raw = impossibleGates(p.gates, {
    k: p.k,
    ...(p.kFrom !== undefined && { kFrom: `${p.kFrom}: k` }),
    scenarios: p.scenarios.map((s) => s.name),
    configs: p.configs.map((c) => c.name),
  });
  // Gates from the config file: name it and the entry, not a --gate flag the user never typed.
  const problems =
    p.gatesFrom === undefined
      ? raw
      : raw.map((line) => {
          const i = p.gates.findIndex((g) => line.startsWith(`--gate ${g.text} `));
          return i < 0
            ? `${p.gatesFrom}: ${line}`
            : `${p.gatesFrom}: gates[${i}] "${p.gates[i]!.text}" ${line.slice(`--gate ${p.gates[i]!.text} `.length)}`;
        });
  if (problems.length === 1) throw new FaultlineError(FaultlineErrorCode.Usage, problems[0]!);
  if (problems.length > 1)
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `${problems.length} gates can never hold:\n${problems.map((l) => `  - ${l}`).join('\n')}`,
    );
  if (p.writesFiles)
    await assertWritableFolder(p.outDir, p.outDirFrom === undefined ? '--out' : `${p.outDirFrom}: outDir`);
  if (p.stepSummary) await assertAppendable(p.stepSummary, 'GITHUB_STEP_SUMMARY');
}
