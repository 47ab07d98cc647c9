import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { readCommandLine } from '../agent/kinds/commandResult.js';
import { McpHttpEndpoint } from '../serve/McpHttpEndpoint.js';
import type { TrialResult } from '../runner/trial.js';
import type { Scenario } from '../scenario/scenario.js';
import { ExitCode } from './exitCodes.js';
import { listenForInterrupt } from './interrupt.js';
import type { Io } from './io.js';
import type { SeedOption } from './options.js';
import { printTrial } from './printTrial.js';
import { servedTimeNote } from './realTimeNote.js';
import { servedScenario } from './servedScenario.js';
import { ServedTrials, type ServedReport } from './servedTrials.js';

/** The flags of `faultline serve`, as commander hands them over. */
export interface ServeFlags {
  readonly seed: SeedOption;
  readonly trials?: number;
  readonly configFile?: string;
}

/**
 * Serves the scenario's world for one trial after another, until `--trials` or Ctrl-C; each ends on a POST to the
 * control endpoint and is judged and printed. 1 when a trial failed.
 */
export async function executeServe(ref: string, flags: ServeFlags, io: Io): Promise<ExitCode> {
  if (flags.seed === 'random')
    throw new FaultlineError(FaultlineErrorCode.Usage, 'serve needs a seed (--seed <n>), not "random"');
  const scenario = await servedScenario(ref, flags.configFile, 'serve');
  const runSeed = flags.seed;
  const interrupt = listenForInterrupt(io);
  // Where a client says a trial is over: a control endpoint beside the served world.
  const control = await controlEndpoint(() => serving.ended);
  // One MCP endpoint for every trial: a client's session goes on to the next trial at the same address.
  const mcpEndpoint = new McpHttpEndpoint();
  const trials = new ServedTrials(scenario, runSeed, mcpEndpoint);
  const serving: Serving = { scenario, runSeed, trials, stop: interrupt.signal, endUrl: control.endUrl };
  let failed = 0;
  try {
    for (; flags.trials === undefined || trials.trialIndex < flags.trials; trials.next()) {
      if (interrupt.signal.aborted) break;
      const trial = await serveTrial(serving, io);
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
  io.stdout.write(`${servedTimeNote(scenario.name)}\n`);
  return failed > 0 ? ExitCode.GateFailed : ExitCode.Ok;
}

/** What every served trial shares; `ended` is how the open trial is ended, while one is open. */
interface Serving {
  readonly scenario: Scenario;
  readonly runSeed: number;
  readonly trials: ServedTrials;
  readonly stop: AbortSignal;
  readonly endUrl: string;
  ended?: EndTrial | undefined;
}

/** Opens the next trial, prints where it is served, and waits for its end: a POST to the end URL, or Ctrl-C. */
async function serveTrial(serving: Serving, io: Io): Promise<TrialResult> {
  const { scenario, runSeed, trials, stop } = serving;
  const open = await trials.open();
  io.stdout.write(
    `faultline serve  ${scenario.name}, seed ${runSeed}, trial ${trials.trialIndex}: serving on real time\n`,
  );
  for (const [name, value] of Object.entries({ ...open.env, FAULTLINE_END_URL: serving.endUrl }))
    if (!name.endsWith('_API_KEY') && name !== 'FAULTLINE_SERVICES') io.stdout.write(`  ${name}=${value}\n`);
  io.stdout.write(
    `  API keys: the test key sk-faultline-test. POST to the end URL to end the trial (body: ` +
      `the result line, optional); Ctrl-C to stop\n`,
  );
  const trial = await new Promise<TrialResult>((resolve) => {
    let done = false;
    const finish = async (report?: ServedReport): Promise<TrialResult> => {
      done = true;
      stop.removeEventListener('abort', onStop);
      return (await trials.end(report))!;
    };
    const onStop = (): void => void (done ? undefined : finish().then(resolve));
    stop.addEventListener('abort', onStop, { once: true });
    serving.ended = async (body) => {
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
  serving.ended = undefined;
  return trial;
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
