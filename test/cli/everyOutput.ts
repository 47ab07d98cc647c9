import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseJsonReport } from '../../src/report/json.js';
import { faultline, type Finished } from './faultline.js';
import { inProcess } from './inProcess.js';

/** What faultline answered for a project's scenarios: a run, a compare, and each run cell's first trial replayed. */
export interface EveryOutput {
  readonly run: Finished;
  readonly compare: Finished;
  readonly replays: readonly { readonly text: Finished; readonly json: Finished }[];
}

/**
 * Every output faultline writes of some scenarios, for the tests that read them all for what
 * must (or must not) reach them: the files written into `cwd` (an ES-module project), the
 * scenarios run (`run/`, step summary `summary-run.md`) and compared rulebook against naive
 * (`compare/`, `summary-compare.md`), two trials a cell, then each run cell's first trial
 * replayed as text and as JSON. The run and the compare go through the real binary (every byte
 * the process writes, its workers' included); the replays run the CLI's entry in this process
 * (./inProcess.ts), the same code, which spares a Node start and the CLI's modules per replay.
 */
export async function everyOutput(
  cwd: string,
  files: Readonly<Record<string, string>>,
  scenarios: readonly string[],
): Promise<EveryOutput> {
  await writeFile(join(cwd, 'package.json'), '{ "type": "module" }\n');
  for (const [name, text] of Object.entries(files)) await writeFile(join(cwd, name), text);
  await writeFile(join(cwd, 'summary-run.md'), '');
  await writeFile(join(cwd, 'summary-compare.md'), '');
  const [run, compare] = await Promise.all([
    faultline(['run', ...scenarios, '--k', '2', '--out', 'run'], {
      cwd,
      env: { GITHUB_STEP_SUMMARY: join(cwd, 'summary-run.md') },
    }),
    faultline(['compare', ...scenarios, '--config', 'rulebook', '--config', 'naive', '--k', '2', '--out', 'compare'], {
      cwd,
      env: { GITHUB_STEP_SUMMARY: join(cwd, 'summary-compare.md') },
    }),
  ]);
  const report = parseJsonReport(await readFile(join(cwd, 'run', 'faultline.json'), 'utf8'));
  const replays: { text: Finished; json: Finished }[] = [];
  for (const cell of report.cells) {
    const args = cell.trials[0]!.replay.split(' ').slice(1);
    const text = await inProcess(args, { cwd });
    const json = await inProcess([...args, '--json'], { cwd });
    replays.push({ text, json });
  }
  return { run, compare, replays };
}
