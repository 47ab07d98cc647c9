import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { History } from '../../core/index.js';
import { tailText } from '../../core/tailText.js';
import type { CommandResult } from '../../world/command/runCommand.js';
import { AgentKill } from './AgentKill.js';
import { startsUntilDone } from './startsUntilDone.js';
import type { TrialEnd } from '../../checks/record.js';
import type { Cassette } from '../../model/api/Cassette.js';
import { readCommandReport } from './commandResult.js';
import { serveScenario, type ServeScenarioOptions } from './serveScenario.js';
import type { CommandAgentSpec } from '../../scenario/scenario.js';

export interface CommandAgentRunOptions extends Omit<ServeScenarioOptions, 'trial' | 'onInfraError'> {
  readonly agent: CommandAgentSpec;
  readonly config: string;
  readonly seed: number;
  readonly trialIndex: number;
  /** Hears a live trial's recording of its model exchanges. */
  readonly onRecording?: (recording: Cassette) => void;
}

/** Bytes of the agent's stdout and stderr kept in the history. */
const KEPT_OUTPUT = 16_384;

/**
 * One trial of an agent that is a program of its own: the world is served over real HTTP, the
 * program started in its own process group with the addresses in its environment, and ended
 * (the group, on timeout) by `runCommand`. The trial's end is what the program reported in
 * `FAULTLINE_RESULT`, or its exit status; a program that cannot start, never exits or reports
 * garbage ends its trial, never the run. The caller sweeps the process table (R19) afterwards.
 */
export async function runCommandAgentTrial(options: CommandAgentRunOptions): Promise<TrialEnd> {
  const { agent, clock, history, startMs } = options;
  // The provider failed for good: the agent waits on an answer that will not come, so it is stopped now, not at its timeout.
  const providerLost = new AbortController();
  const trigger = options.scenario.crash?.agent;
  const kill = trigger && new AgentKill(trigger, options.world.ledger, history);
  const { served, env, problems, infraErrors, recording } = await serveScenario({
    ...options,
    trial: {
      scenario: options.scenario.name,
      config: options.config,
      trialIndex: options.trialIndex,
      seed: options.seed,
    },
    onInfraError: () => providerLost.abort(),
    ...(kill && { gate: kill }),
  });
  if (recording) options.onRecording?.(recording);
  const dir = await mkdtemp(join(tmpdir(), 'faultline-agent-'));
  const resultFile = join(dir, 'result.json');
  // The trial's working folder: what the agent keeps there (an operation record, a SQLite file) survives a crash.
  const workDir = join(dir, 'work');
  await mkdir(workDir);
  const base = {
    ...harnessEnv(),
    ...noProxy(),
    ...env,
    FAULTLINE_TASK: agent.task,
    FAULTLINE_SEED: String(options.seed),
    FAULTLINE_TRIAL: String(options.trialIndex),
    FAULTLINE_WORKDIR: workDir,
  };
  let result: CommandResult;
  try {
    result = await startsUntilDone(kill, (restart) => ({
      spec: {
        argv: agent.argv as [string, ...string[]],
        ...(agent.cwd !== undefined && { cwd: agent.cwd }),
        env: {
          ...base,
          ...(restart > 0 && { FAULTLINE_RESTART: '1', FAULTLINE_RESTART_COUNT: String(restart) }),
          ...agent.env,
          FAULTLINE_RESULT: resultFile,
        } as Record<string, string>,
        timeoutMs: agent.timeoutMs,
        maxOutputBytes: KEPT_OUTPUT,
      },
      options: { clock, processes: options.world.processes, service: 'agent', signal: providerLost.signal },
      resultFile,
      startMs,
      history,
    }));
  } finally {
    await served.close();
  }
  try {
    // Not the agent's doing: whatever it did or reported after the provider failed, the trial is not judged.
    const lost = infraErrors[0];
    if (lost !== undefined) return { kind: 'infra_error', message: lost };
    return await endOf(result, resultFile, history, clock.now() - startMs, agent, problems, options.scenario.secrets);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The harness's environment less the model endpoints it may name: a program must reach only the served one. */
function harnessEnv(): Record<string, string | undefined> {
  const { OPENAI_BASE_URL: _openai, ANTHROPIC_BASE_URL: _anthropic, ...rest } = process.env;
  return rest;
}

/** Loopback never goes through a proxy the environment names for the outside world. */
function noProxy(): Record<string, string> {
  const own = ['127.0.0.1', 'localhost'];
  const given = (process.env['NO_PROXY'] ?? process.env['no_proxy'] ?? '').split(',').filter((h) => h.trim() !== '');
  const value = [...new Set([...given, ...own])].join(',');
  return { NO_PROXY: value, no_proxy: value };
}

async function endOf(
  result: CommandResult,
  resultFile: string,
  history: History,
  at: number,
  agent: CommandAgentSpec,
  problems: readonly string[],
  secrets: readonly string[],
): Promise<TrialEnd> {
  const program = agent.argv.join(' ');
  if (result.kind === 'spawn_failed')
    return { kind: 'crashed', message: `the agent command (${program}) could not start: ${result.message}` };
  if (result.kind === 'timed_out') {
    return {
      kind: 'hung',
      at,
      message:
        `the agent command (${program}) did not exit within timeoutMs ${result.timeoutMs} ms ` +
        `(real time); its process group was sent ${result.killedWith}`,
    };
  }
  const first = problems[0];
  if (first !== undefined) return { kind: 'crashed', message: first };
  const report = await readCommandReport(resultFile);
  if (report.kind === 'garbage')
    return {
      kind: 'crashed',
      message: `the agent command (${program}) exited with ${exitOf(result)}, and ${report.message}`,
    };
  if (report.kind === 'reported') {
    history.record({ type: 'agent_end', outcome: report.outcome, claims: report.claims, message: report.message });
    return { kind: 'agent_ended', outcome: report.outcome };
  }
  if (result.signal !== null)
    return {
      kind: 'crashed',
      message: `the agent command (${program}) was killed by ${result.signal}${stderrOf(result, secrets)}`,
    };
  const outcome = result.exitCode === 0 ? 'completed' : 'failed';
  history.record({
    type: 'agent_end',
    outcome,
    claims: [],
    message: `exited with code ${String(result.exitCode)} and wrote no FAULTLINE_RESULT${stderrOf(result, secrets)}`,
  });
  return { kind: 'agent_ended', outcome };
}

const exitOf = (result: CommandResult): string =>
  result.signal === null ? `code ${String(result.exitCode)}` : result.signal;
// Its last 400 characters, the cut never inside a declared secret (a piece of one no report's scrub would find).
const stderrOf = (result: CommandResult, secrets: readonly string[]): string =>
  result.stderr.trim() === '' ? '' : `; stderr: ${tailText(result.stderr.trim(), 400, secrets)}`;
