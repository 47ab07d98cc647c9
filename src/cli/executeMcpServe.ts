import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { readCommandLine } from '../agent/kinds/commandResult.js';
import type { TrialResult } from '../runner/trial.js';
import { createMcpWorldServer } from '../serve/mcpWorldServer.js';
import { McpHttpEndpoint } from '../serve/McpHttpEndpoint.js';
import { ExitCode } from './exitCodes.js';
import type { Io } from './io.js';
import { listenForInterrupt } from './interrupt.js';
import { writeMcpServeReport } from './mcpServeReport.js';
import { assertWritableFile, assertWritableFolder } from './outputPaths.js';
import { printTrial } from './printTrial.js';
import { servedTimeNote } from './realTimeNote.js';
import { servedScenario } from './servedScenario.js';
import { sessionClock, writeServedReports } from './servedReports.js';
import { SERVED_CONFIG, ServedTrials, type ServedReport } from './servedTrials.js';

/** Everything `mcp-serve` needs, flags already parsed. */
export interface McpServeRequest {
  readonly scenario: string;
  readonly seed: number;
  readonly configFile?: string;
  /** End after this many trials (default: until the client closes stdin, or Ctrl-C). */
  readonly trials?: number;
  /** Also write the judged trials to this JSON file. */
  readonly report?: string;
  /** Also write the report files `run` writes to this folder. */
  readonly out?: string;
}

/**
 * The scenario's world as an MCP server on stdio, one trial after another, each judged like any
 * trial; then the reports. Resolves to the exit code: 1 when a trial failed.
 */
export async function executeMcpServe(request: McpServeRequest, io: Io): Promise<ExitCode> {
  if (request.report !== undefined) await assertWritableFile(request.report, '--report');
  if (request.out !== undefined) await assertWritableFolder(request.out, '--out');
  const clock = sessionClock();
  const scenario = await servedScenario(request.scenario, request.configFile, 'mcp-serve');
  const runSeed = request.seed;
  // stdout is the MCP connection: everything said to a person goes to stderr.
  const err: Io = { ...io, stdout: io.stderr };
  // The same tools over HTTP too, at one address for every trial.
  const mcpEndpoint = new McpHttpEndpoint();
  const trials = new ServedTrials(scenario, runSeed, mcpEndpoint);
  const header = `${scenario.name}, seed ${runSeed}`;
  const openTrial = async (): Promise<void> => {
    const open = await trials.open();
    err.stderr.write(
      `faultline mcp-serve  ${header}, trial ${trials.trialIndex}: serving ${open.mcp.tools.length} MCP tools on stdio, on real time\n`,
    );
    err.stderr.write(`  the same world over HTTP: FAULTLINE_MCP_URL=${open.env['FAULTLINE_MCP_URL'] ?? ''}\n`);
  };
  const endTrial = async (report?: ServedReport): Promise<TrialResult | undefined> => {
    const trial = await trials.end(report);
    if (!trial) return undefined;
    printTrial(
      trial,
      err,
      false,
      (p, status) => `${p.bold('faultline mcp-serve')}  ${header}, trial ${trials.trialIndex}: ${status}`,
    );
    trials.next();
    return trial;
  };

  await openTrial();
  if (trials.current!.mcp.tools.length === 0) {
    await trials.current!.finish();
    await mcpEndpoint.close();
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `mcp-serve: scenario "${scenario.name}" declares no tools (its services have none): nothing to serve`,
    );
  }
  await serveOnStdio(trials, openTrial, endTrial, request.trials, io);
  if (request.report !== undefined) writeMcpServeReport(request.report, scenario.name, runSeed, trials.judged, err);
  if (request.out !== undefined)
    await writeServedReports(scenario, SERVED_CONFIG, runSeed, trials.judged, request.out, clock, err);
  err.stderr.write(`${servedTimeNote(scenario.name)}\n`);
  return trials.judged.some((t) => t.status === 'failed') ? ExitCode.GateFailed : ExitCode.Ok;
}

/**
 * Answers MCP on stdio until the client closes stdin, Ctrl-C, or the last trial `trials` allows
 * ends (`faultline/end_trial`); then judges the trial still open.
 */
async function serveOnStdio(
  trials: ServedTrials,
  openTrial: () => Promise<void>,
  endTrial: (report?: ServedReport) => Promise<TrialResult | undefined>,
  most: number | undefined,
  io: Io,
): Promise<void> {
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  const more = (): boolean => most === undefined || trials.trialIndex < most;
  const mcp = createMcpWorldServer({
    world: () => trials.current?.mcp,
    endTrial: async (params) => {
      const line = readCommandLine(JSON.stringify(params));
      if (line.kind === 'garbage') throw new McpError(ErrorCode.InvalidParams, line.message);
      const trial = await endTrial(line.kind === 'reported' ? line : undefined);
      if (!trial) throw new McpError(ErrorCode.InvalidRequest, 'no trial is open');
      const next = more();
      if (next) await openTrial();
      // The answer goes out first; then the session ends.
      else void Promise.resolve().then(stop);
      return {
        trial: trial.trialIndex,
        status: trial.status,
        checks: trial.checks.map((c) => ({ name: c.name, verdict: c.verdict })),
        ...(next && { next: trials.trialIndex }),
      };
    },
  });
  const interrupt = listenForInterrupt(io);
  interrupt.signal.addEventListener('abort', stop, { once: true });
  // The SDK's stdio transport does not notice the client closing its end.
  process.stdin.once('end', stop);
  const transport = new StdioServerTransport(process.stdin, process.stdout);
  transport.onclose = stop;
  try {
    await mcp.connect(transport);
    await stopped;
    await endTrial();
  } finally {
    interrupt.dispose();
    await mcp.close().catch(() => undefined);
    await trials.mcpEndpoint.close();
    process.stdin.pause();
  }
}
