import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { CellTally } from '../stats/CellTally.js';
import { finishRun, type RunResult } from './run.js';

const same = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The run that the shards of one matrix make together, as the unsharded run would have
 * reported it: cells are tallied again from the shards' cells (sums, counts, duration
 * counts, the first failing trials by index), in the matrix's order. Refuses anything that
 * is not every shard of one run exactly once; `sources` name the reports in the messages.
 */
export function mergeRuns(runs: readonly RunResult[], sources: readonly string[]): RunResult {
  const usage = (message: string): FaultlineError => new FaultlineError(FaultlineErrorCode.Usage, message);
  const first = runs[0];
  if (first === undefined) throw usage('merge needs at least one shard report');
  const seen = new Map<number, string>();
  runs.forEach((run, i) => {
    const source = sources[i] ?? `report ${i + 1}`;
    if (run.shard === undefined)
      throw usage(`${source}: not a shard report (it has no run.shard; write shards with --shard i/n)`);
    if (run.shard.count !== first.shard!.count)
      throw usage(
        `${source}: shard ${run.shard.index}/${run.shard.count} does not belong with ${sources[0]} (shard ` +
          `${first.shard!.index}/${first.shard!.count})`,
      );
    const differs =
      run.seed !== first.seed
        ? `seed ${run.seed}, not ${first.seed}`
        : run.k !== first.k
          ? `k = ${run.k}, not ${first.k}`
          : !same(run.scenarios, first.scenarios)
            ? `other scenarios (${run.scenarios.join(', ')})`
            : !same(run.configs, first.configs)
              ? `other configurations (${run.configs.join(', ')})`
              : run.keepFailures !== first.keepFailures
                ? `--keep-failures ${run.keepFailures ?? 'all'}, not ${first.keepFailures ?? 'all'}`
                : undefined;
    if (differs !== undefined) throw usage(`${source}: a shard of another run than ${sources[0]}: ${differs}`);
    const twice = seen.get(run.shard.index);
    if (twice !== undefined) throw usage(`${source}: shard ${run.shard.index}/${run.shard.count} is also in ${twice}`);
    seen.set(run.shard.index, source);
  });
  const count = first.shard!.count;
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0)
    throw usage(`missing ${missing.map((i) => `shard ${i}/${count}`).join(', ')}: merge needs every shard of the run`);

  const keep = first.keepFailures ?? undefined;
  const tallies = first.configs.flatMap((config) =>
    first.scenarios.map((scenario) => ({ scenario, config, tally: undefined as CellTally | undefined })),
  );
  const slot = new Map(tallies.map((t) => [`${t.config}\u0000${t.scenario}`, t]));
  for (const [i, run] of runs.entries()) {
    for (const cell of run.cells) {
      const entry = slot.get(`${cell.config}\u0000${cell.scenario}`);
      if (entry === undefined)
        throw usage(
          `${sources[i] ?? `report ${i + 1}`}: a cell ${cell.scenario} × ${cell.config} outside its ` +
            `own matrix (scenarios: ${first.scenarios.join(', ')}; configurations: ${first.configs.join(', ')}); was the report edited?`,
        );
      entry.tally ??= new CellTally(cell.scenario, cell.config, cell.refs, keep, [], cell.clock ?? 'virtual');
      entry.tally.addCell(cell);
    }
  }
  return finishRun({
    seed: first.seed,
    k: first.k,
    scenarios: first.scenarios,
    configs: first.configs,
    cells: tallies.flatMap((t) => (t.tally ? [t.tally.cell()] : [])),
    interrupted: runs.some((r) => r.interrupted),
    keepFailures: first.keepFailures,
  });
}
