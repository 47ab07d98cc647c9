import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { FaultlineError, FaultlineErrorCode } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { ExitCode } from '../exitCodes.js';
import type { Io } from '../io.js';
import { listenForInterrupt } from '../interrupt.js';
import { parseSeed, type SeedOption } from '../options.js';
import { realTimeNote } from '../realTimeNote.js';

interface McpServeFlags {
  readonly seed: SeedOption;
  readonly trials?: number;
  readonly report?: string;
  readonly out?: string;
  readonly configFile?: string;
}

const EXAMPLES = `
Examples:
  $ faultline mcp-serve ./orders.yaml
                       an MCP server on stdio: your MCP client starts this command
  $ faultline mcp-serve ./orders.yaml --trials 3 --report reports/mcp-serve.json
  $ faultline mcp-serve ./orders.yaml --out reports   also faultline.json, junit.xml and summary.md, as run writes them

The scenario's tools (every tool of its services) are MCP tools, annotated from their risk
(read: readOnlyHint; write: idempotentHint false, destructiveHint true; idempotent-write:
idempotentHint true), with a {tool}_status tool for each tool that answers status queries.
Each tools/call goes through the scenario's world under its fault plan, on the wall clock:
a partial write commits and the client gets no answer (or a tool error), a rate limit comes
back as a tool error with retryAfterMs and its Retry-After header. An idempotency key goes in
the call's _meta.idempotencyKey. A trial ends on the request faultline/end_trial (params: the
FAULTLINE_RESULT line, optional), when the client closes stdin, or on Ctrl-C; its verdicts go to
stderr (stdout is the MCP connection). Exit code: 0 when every trial passed, 1 when one failed.`;

const positive = (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
};

/** `faultline mcp-serve <scenario>`: the scenario's world as an MCP server on stdio, judged like any trial. */
export function createMcpServeCommand(ctx: CliContext): Command {
  return new Command('mcp-serve')
    .description("serve a scenario's tools as an MCP server on stdio under its fault plan, and judge what the client did")
    .argument('<scenario>', 'scenario file or built-in name')
    .option('--seed <n>', "the run seed (the plan's draws, as `run --seed`)", parseSeed, 1)
    .option('--config-file <file>', 'the project config file whose defaults the scenario takes (default: ./faultline.config.ts if there is one)')
    .option('--trials <n>', 'end after this many trials (default: until the client closes stdin, or Ctrl-C)', positive)
    .option('--report <file>', 'also write the judged trials (verdicts and histories) to this JSON file')
    .option('--out <dir>', 'also write the report files `run` writes (JSON, JUnit, Markdown) for the judged trials to this folder')
    .addHelpText('after', EXAMPLES)
    .action(async (ref: string, flags: McpServeFlags) => {
      if (flags.seed === 'random') throw new FaultlineError(FaultlineErrorCode.Usage, 'mcp-serve needs a seed (--seed <n>), not "random"');
      if (flags.report !== undefined) {
        const { assertWritableFile } = await import('../outputPaths.js');
        await assertWritableFile(flags.report, '--report');
      }
      if (flags.out !== undefined) {
        const { assertWritableFolder } = await import('../outputPaths.js');
        await assertWritableFolder(flags.out, '--out');
      }
      const { sessionClock, writeServedReports } = await import('../servedReports.js');
      const clock = sessionClock();
      const [{ judgeTrial }, { openServedTrial }, { readCommandLine }, { memoryBackend }, { trialSeed }, { printTrial }, server, { StdioServerTransport }, { McpError, ErrorCode }, { McpHttpEndpoint }] =
        await Promise.all([
          import('../../runner/trial.js'),
          import('../../runner/servedTrial.js'),
          import('../../agent/kinds/commandResult.js'),
          import('../../runner/backend.js'),
          import('../../core/index.js'),
          import('../printTrial.js'),
          import('../../serve/mcpWorldServer.js'),
          import('@modelcontextprotocol/sdk/server/stdio.js'),
          import('@modelcontextprotocol/sdk/types.js'),
          import('../../serve/McpHttpEndpoint.js'),
        ]);
      const { servedScenario } = await import('../servedScenario.js');
      const scenario = await servedScenario(ref, flags.configFile, 'mcp-serve');
      const runSeed = flags.seed;
      const config = 'rulebook';
      // stdout is the MCP connection: everything said to a person goes to stderr.
      const io: Io = { ...ctx.io, stdout: ctx.io.stderr };
      type Open = Awaited<ReturnType<typeof openServedTrial>>;
      type Judged = ReturnType<typeof judgeTrial>;
      // The same tools over HTTP too, at one address for every trial.
      const mcpEndpoint = new McpHttpEndpoint();
      let current: Open | undefined;
      let ports: Open['ports'] | undefined;
      let trialIndex = 0;
      const judged: Judged[] = [];

      const openTrial = async (): Promise<void> => {
        const seed = trialSeed(runSeed, scenario.name, config, trialIndex);
        current = await openServedTrial({ scenario, config, seed, trialIndex, backend: memoryBackend, mcpEndpoint, ...(ports && { ports }) });
        ports = current.ports;
        io.stderr.write(`faultline mcp-serve  ${scenario.name}, seed ${runSeed}, trial ${trialIndex}: serving ${current.mcp.tools.length} MCP tools on stdio, on real time\n`);
        io.stderr.write(`  the same world over HTTP: FAULTLINE_MCP_URL=${current.env['FAULTLINE_MCP_URL'] ?? ''}\n`);
      };
      const endTrial = async (report?: Parameters<Open['finish']>[0]): Promise<Judged | undefined> => {
        const open = current;
        current = undefined;
        if (!open) return undefined;
        const trial = judgeTrial(scenario, await open.finish(report), runSeed, undefined);
        judged.push(trial);
        printTrial(trial, io, false, (p, status) => `${p.bold('faultline mcp-serve')}  ${scenario.name}, seed ${runSeed}, trial ${trialIndex}: ${status}`);
        trialIndex++;
        return trial;
      };

      await openTrial();
      if (current!.mcp.tools.length === 0) {
        await current!.finish();
        await mcpEndpoint.close();
        throw new FaultlineError(FaultlineErrorCode.Usage, `mcp-serve: scenario "${scenario.name}" declares no tools (its services have none): nothing to serve`);
      }

      let stop!: () => void;
      const stopped = new Promise<void>((r) => (stop = r));
      const more = (): boolean => flags.trials === undefined || trialIndex < flags.trials;
      const mcp = server.createMcpWorldServer({
        world: () => current?.mcp,
        endTrial: async (params) => {
          const line = readCommandLine(JSON.stringify(params));
          if (line.kind === 'garbage') throw new McpError(ErrorCode.InvalidParams, line.message);
          const trial = await endTrial(line.kind === 'reported' ? line : undefined);
          if (!trial) throw new McpError(ErrorCode.InvalidRequest, 'no trial is open');
          const next = more();
          if (next) await openTrial();
          // The answer goes out first; then the session ends.
          else void Promise.resolve().then(stop);
          return { trial: trial.trialIndex, status: trial.status, checks: trial.checks.map((c) => ({ name: c.name, verdict: c.verdict })), ...(next && { next: trialIndex }) };
        },
      });
      const interrupt = listenForInterrupt(ctx.io);
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
        await mcpEndpoint.close();
        process.stdin.pause();
      }
      if (flags.report !== undefined) {
        const out = resolve(flags.report);
        mkdirSync(dirname(out), { recursive: true });
        const trials = judged.map((t) => ({ trialIndex: t.trialIndex, seed: t.seed, status: t.status, checks: t.checks, end: t.end, history: t.history, snapshot: t.snapshot }));
        writeFileSync(out, `${JSON.stringify({ kind: 'faultline-mcp-serve', scenario: scenario.name, seed: runSeed, trials }, null, 2)}\n`);
        io.stderr.write(`report: ${out}\n`);
      }
      if (flags.out !== undefined) await writeServedReports(scenario, config, runSeed, judged, flags.out, clock, io);
      io.stderr.write(`${realTimeNote([scenario.name])}\n`);
      ctx.exitCode = judged.some((t) => t.status === 'failed') ? ExitCode.GateFailed : ExitCode.Ok;
    });
}
