import type { ExecutionConfig } from '../runtime/executionConfig.js';
import type { Scenario } from '../scenario/scenario.js';
import { cellRuns } from '../runner/cellLabel.js';
import { matrixJobs } from '../runner/run.js';
import type { Shard } from '../runner/shard.js';
import { colorEnabled } from '../report/console.js';
import type { ReporterName } from '../report/write.js';
import { isCi, type Io } from './io.js';
import { createProgress } from './progress.js';
import type { RunRequest } from './runRequest.js';

/** How many of each cell's trials a shard runs, for the progress lines. */
function shardCellSize(
  scenarios: readonly Scenario[],
  configs: readonly ExecutionConfig[],
  k: number,
  shard: Shard,
): (config: string, scenario: string) => number {
  const sizes = new Map<string, number>();
  for (const job of matrixJobs(scenarios.length, configs.length, k, shard, cellRuns(scenarios))) {
    const key = `${configs[job.config]!.name}\u0000${scenarios[job.scenario]!.name}`;
    sizes.set(key, (sizes.get(key) ?? 0) + 1);
  }
  return (config, scenario) => sizes.get(`${config}\u0000${scenario}`) ?? 0;
}

/** The progress of a run: on stdout for the dot and list reporters, else on stderr. */
export function runProgress(
  request: RunRequest,
  reporters: readonly ReporterName[],
  scenarios: readonly Scenario[],
  configs: readonly ExecutionConfig[],
  io: Io,
): ReturnType<typeof createProgress> {
  // The dot and list reporters show the run as it goes on stdout, as vitest's and Playwright's do; else the progress goes to stderr.
  const onStdout = reporters.includes('dot') ? 'dots' : reporters.includes('list') ? 'lines' : undefined;
  const progressStream = onStdout === undefined ? io.stderr : io.stdout;
  return createProgress({
    stream: progressStream,
    mode: onStdout ?? (io.stderr.isTTY === true && !isCi(io.env) ? 'bar' : 'lines'),
    k: request.k,
    ...(request.shard && { cellSize: shardCellSize(scenarios, configs, request.k, request.shard) }),
    color: colorEnabled(progressStream, io.env),
    onlyFailing: request.quiet === true,
  });
}
