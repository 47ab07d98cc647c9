import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import type { ExploreResult, PlanRuleFirings } from '../explore/explorePlans.js';
import { renderRegression } from '../explore/regressionFile.js';
import { failedTrialLines } from '../report/failures.js';
import { mark, type painter } from '../report/paint.js';
import type { ExecutionConfig } from '../runtime/executionConfig.js';
import { refOf, sourceFileOf, type matrixAgentOf } from '../scenario/library.js';
import type { Scenario } from '../scenario/scenario.js';
import { overrideOf } from '../scenario/scenarioOverride.js';
import { flagNames, type ExploreRequest } from './commands/exploreFlags.js';
import type { Io } from './io.js';
import { CRASH_RULE } from '../stats/coverage.js';
import { assertWritableFolder } from './outputPaths.js';

/** Each finding of a pair: printed, and its regression file written once (two classes shrunk to one plan share it). */
export async function writeRegressions(
  request: ExploreRequest,
  result: Extract<ExploreResult, { kind: 'failed' }>,
  {
    scenario,
    config,
    agent,
    label,
  }: {
    readonly scenario: Scenario;
    readonly config: ExecutionConfig;
    readonly agent: ReturnType<typeof matrixAgentOf>;
    readonly label: string;
  },
  written: Map<string, string>,
  p: ReturnType<typeof painter>,
  io: Io,
): Promise<void> {
  const behaviour = overrideOf(scenario)?.behaviour;
  for (const finding of result.findings) {
    await assertWritableFolder(request.out, '--out');
    const file = await renderRegression(
      { ...result, ...finding },
      {
        scenario: refOf(scenario),
        config: refOf(config),
        outDir: request.out,
        source: sourceFileOf(scenario),
        runs: request.runs,
        flags: searchFlags(request),
        ...(agent !== undefined && { agent: agent.name }),
        ...(behaviour !== undefined && { behaviour }),
      },
    );
    const rules = finding.plan.length;
    const crash = finding.crash === undefined ? '' : ` and a crash point`;
    io.stdout.write(
      `${mark(p, false)} ${label}: ${finding.failure} at plan ${finding.foundAt}; shrunk in ` +
        `${finding.shrinks} steps to ${rules} fault rule${rules === 1 ? '' : 's'}${crash}\n`,
    );
    const shown =
      finding.crash === undefined ? finding.plan : { faults: finding.plan, crash: { agent: finding.crash } };
    io.stdout.write(
      `${stringify(shown, { lineWidth: 0 })
        .trimEnd()
        .split('\n')
        .map((l) => `      ${l}`)
        .join('\n')}\n`,
    );
    const offset = finding.regression.faults.length - finding.plan.length;
    io.stdout.write(`    fired in the failing trial: ${firedText(finding.fired, offset)}\n`);
    // The trial as the regression file names it, so its replay line runs the file.
    const trial = { ...finding.trial, refs: { scenario: file.file, config: refOf(config) } };
    io.stdout.write(
      `${failedTrialLines(trial)
        .map((l) => `    ${l}`)
        .join('\n')}\n`,
    );
    // Two classes shrunk to one plan share its file (the name is the plan's content).
    const shared = written.get(file.file);
    if (shared !== undefined) {
      io.stdout.write(
        `    regression: ${file.file} (the same plan as ${shared})\n    reproduce:  ${file.runCommand}\n`,
      );
      continue;
    }
    await mkdir(request.out, { recursive: true });
    // A file of that name that differs was written for another scenario file or by another faultline.
    const before = await readFile(file.file, 'utf8').catch(() => undefined);
    await writeFile(file.file, file.text);
    written.set(file.file, finding.failure);
    const replaced =
      before !== undefined && before !== file.text
        ? ' (replaced a different file of the same name)'
        : before === file.text
          ? ' (unchanged: the same plan was kept before)'
          : '';
    io.stdout.write(`    regression: ${file.file}${replaced}\n    reproduce:  ${file.runCommand}\n`);
  }
}

/** `faults[1] (any tool, duplicate) 2×, faults[2] (create_order call 3, timeout) never (expect: may-not-fire)`. */
const firedText = (fired: readonly PlanRuleFirings[], offset: number): string =>
  fired.every((r) => r.firings === 0)
    ? `none of its rules, run again (is the agent on the wall clock? its trial is not deterministic)`
    : fired
        .map(
          (r) =>
            `${r.rule === CRASH_RULE ? 'crash.agent' : `faults[${offset + r.rule}]`} (${r.label}) ` +
            `${r.firings > 0 ? `${r.firings}×` : 'never (expect: may-not-fire)'}`,
        )
        .join(', ');

/** The flags besides seed and runs that change what a search finds, as a command line repeats them. */
const searchFlags = (request: ExploreRequest): string[] => [
  ...(request.replaceFaults === true ? ['--replace-faults'] : []),
  ...(request.lies === true ? ['--lies'] : []),
  ...(request.crashOnly === true ? ['--crash-only'] : []),
  ...(request.behaviour ?? []).flatMap((b) => ['--behaviour', b]),
  ...flagNames(request.check).flatMap((c) => ['--check', c]),
  ...flagNames(request.ignore).flatMap((c) => ['--ignore', c]),
];
