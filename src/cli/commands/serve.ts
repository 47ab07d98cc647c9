import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Command } from 'commander';
import { FaultlineError, FaultlineErrorCode } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { ExitCode } from '../exitCodes.js';
import { listenForInterrupt } from '../interrupt.js';
import { parsePositive, parseSeed, type SeedOption } from '../options.js';
import { realTimeNote } from '../realTimeNote.js';
import type { TrialResult } from '../../runner/trial.js';
import type { ServedReport } from '../servedTrials.js';

interface ServeFlags {
  readonly seed: SeedOption;
  readonly trials?: number;
  readonly configFile?: string;
}

const EXAMPLES =
  `
Examples:
  $ faultline serve ./order-agent.yaml
                       prints FAULTLINE_ORDERS_URL=http://127.0.0.1:…, FAULTLINE_MCP_URL=…/mcp, ` +
  `OPENAI_BASE_URL=… and FAULTLINE_END_URL
  $ curl -X POST "$FAULTLINE_ORDERS_URL/tools/create_order" -H 'idempotency-key: k1' -d '{…}'
  $ curl -X POST "$FAULTLINE_END_URL" -d '{"outcome":"completed"}'   ends the trial: its verdicts come back
  $ faultline serve ./order-agent.yaml --trials 3   three trials, at the same addresses, then exits

The scenario's services (and its model API) are served on 127.0.0.1 under its fault plan, on the
wall clock, and its tools as an MCP server over Streamable HTTP at FAULTLINE_MCP_URL, ` +
  `and every request is recorded as in a run. A trial ends on a POST to FAULTLINE_END_URL
(optionally with the FAULTLINE_RESULT line: outcome and claims) or on Ctrl-C; its timeline and
verdicts are printed. With faultline.config.ts, its defaults fill the scenario as for "faultline run"
(the agent is yours: its agents matrix plays no part). Exit code: 0 when every trial passed, 1 when one failed; 130 after Ctrl-C
(the verdicts of the trial it ended are printed first).`;

/** `faultline serve <scenario>`: the scenario's world over real HTTP, kept up for interactive work. */
export function createServeCommand(ctx: CliContext): Command {
  return new Command('serve')
    .description("serve a scenario's services and model API on 127.0.0.1 under its fault plan, and judge what arrives")
    .argument('<scenario>', 'scenario file or built-in name')
    .option('--seed <n>', "the run seed (the plan's draws, as `run --seed`)", parseSeed, 1)
    .option('--trials <n>', 'end after this many trials (default: until Ctrl-C)', parsePositive)
    .option(
      '--config-file <file>',
      'the project config file whose defaults the scenario takes (default: ./faultline.config.ts if there is one)',
    )
    .addHelpText('after', EXAMPLES)
    .action(async (ref: string, flags: ServeFlags) => {
      if (flags.seed === 'random')
        throw new FaultlineError(FaultlineErrorCode.Usage, 'serve needs a seed (--seed <n>), not "random"');
      const [{ readCommandLine }, { printTrial }, { McpHttpEndpoint }, { ServedTrials }, { servedScenario }] =
        await Promise.all([
          import('../../agent/kinds/commandResult.js'),
          import('../printTrial.js'),
          import('../../serve/McpHttpEndpoint.js'),
          import('../servedTrials.js'),
          import('../servedScenario.js'),
        ]);
      const scenario = await servedScenario(ref, flags.configFile, 'serve');
      const runSeed = flags.seed;
      const interrupt = listenForInterrupt(ctx.io);
      const { io } = ctx;

      // Where a client says a trial is over: a control endpoint beside the served world.
      let ended: EndTrial | undefined;
      const control = await controlEndpoint(() => ended);
      // One MCP endpoint for every trial: a client's session goes on to the next trial at the same address.
      const mcpEndpoint = new McpHttpEndpoint();
      const trials = new ServedTrials(scenario, runSeed, mcpEndpoint);
      let failed = 0;
      try {
        for (; flags.trials === undefined || trials.trialIndex < flags.trials; trials.next()) {
          if (interrupt.signal.aborted) break;
          const open = await trials.open();
          io.stdout.write(
            `faultline serve  ${scenario.name}, seed ${runSeed}, trial ${trials.trialIndex}: serving on real time\n`,
          );
          for (const [name, value] of Object.entries({ ...open.env, FAULTLINE_END_URL: control.endUrl }))
            if (!name.endsWith('_API_KEY') && name !== 'FAULTLINE_SERVICES') io.stdout.write(`  ${name}=${value}\n`);
          io.stdout.write(
            `  API keys: the test key sk-faultline-test. POST to the end URL to end the trial (body: ` +
              `the result line, optional); Ctrl-C to stop\n`,
          );
          const trial = await new Promise<TrialResult>((resolve) => {
            let done = false;
            const finish = async (report?: ServedReport): Promise<TrialResult> => {
              done = true;
              interrupt.signal.removeEventListener('abort', onStop);
              return (await trials.end(report))!;
            };
            const onStop = (): void => void (done ? undefined : finish().then(resolve));
            interrupt.signal.addEventListener('abort', onStop, { once: true });
            ended = async (body) => {
              if (done) return { status: 409, text: JSON.stringify({ error: 'this trial has ended' }) };
              const report = body.trim() === '' ? undefined : readCommandLine(body);
              if (report?.kind === 'garbage') return { status: 400, text: JSON.stringify({ error: report.message }) };
              const judged = await finish(report?.kind === 'reported' ? report : undefined);
              // The next trial (or the exit) waits until the client has its answer.
              return {
                status: 200,
                text: JSON.stringify({
                  status: judged.status,
                  checks: judged.checks.map((c) => ({ name: c.name, verdict: c.verdict })),
                }),
                after: () => resolve(judged),
              };
            };
          });
          ended = undefined;
          if (trial.status === 'failed') failed++;
          printTrial(
            trial,
            io,
            false,
            (p, status) =>
              `${p.bold('faultline serve')}  ${scenario.name}, seed ${runSeed}, trial ${trials.trialIndex}: ${status}`,
          );
        }
      } finally {
        control.close();
        await mcpEndpoint.close();
        interrupt.dispose();
      }
      io.stdout.write(`${realTimeNote([scenario.name])}\n`);
      ctx.exitCode = failed > 0 ? ExitCode.GateFailed : ExitCode.Ok;
    });
}

/** What the control endpoint does with a POST to end the trial: the answer, and what to do once it is sent. */
type EndTrial = (body: string) => Promise<{ status: number; text: string; after?: () => void }>;

/** The control endpoint on 127.0.0.1: a POST ends the open trial (`ended()`), anything else is refused. */
async function controlEndpoint(ended: () => EndTrial | undefined): Promise<{ readonly endUrl: string; close(): void }> {
  const control = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const end = ended();
      if (req.method !== 'POST' || end === undefined) {
        res
          .writeHead(405, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: "POST the trial's result (or nothing) to end it" }));
        return;
      }
      void end(Buffer.concat(chunks).toString('utf8')).then(({ status, text, after }) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(text, after),
      );
    });
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', () => resolve()));
  return {
    endUrl: `http://127.0.0.1:${(control.address() as AddressInfo).port}/end`,
    close: () => {
      control.closeAllConnections();
      control.close();
    },
  };
}
