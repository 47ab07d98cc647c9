/**
 * The model's own mistakes (issue 45) on SDK agents in a user's project: each kind fires on the
 * openai and Anthropic routes, streamed and not; a careless agent (it sends the model's call on
 * as it came, and reports any text as done) is caught by `model-mistakes` naming the rule, and a
 * validating one (it checks each call and feeds the error back, R16, or asks again) passes. The
 * first case goes through the real binary; the variations run the CLI's entry in process, every
 * kind's scenario in one run per agent.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline } from './faultline.js';
import { inProcess } from './inProcess.js';
import { anthropicMistakenAgent, openaiMistakenAgent, type MistakeStyle } from './mistakenAgents.js';
import { httpAgentOpensTicket, OPEN_TICKET_PLAN, PRINTER_TASK } from './ticketScenario.js';
import { userProject } from './userProject.js';

type Api = 'openai' | 'anthropic';
const ROUTE: Record<Api, string> = { openai: 'model:openai.chat.completions', anthropic: 'model:anthropic.messages' };
const HELPDESK = new URL('../../scenarios/examples/helpdesk/code/helpdesk.service.ts', import.meta.url).pathname;

/** The kinds that break the first answer's call (the agent must not send it on: R16), and the fault each is. */
const CALL_KINDS: Record<string, string> = {
  malformed: '{ kind: malformed_arguments }',
  invalid: '{ kind: invalid_arguments }',
  unknown: '{ kind: unknown_tool }',
  'cut-call': '{ kind: truncated, keep: 12, at: tool_call }',
};
/** The kinds that spoil the last answer (the agent must not report it done: R20). */
const TEXT_KINDS: Record<string, string> = {
  refusal: '{ kind: refusal }',
  filter: '{ kind: content_filter }',
  empty: '{ kind: empty_text }',
  garbled: '{ kind: garbled }',
  error: '{ kind: error_in_200 }',
  'cut-text': '{ kind: truncated, keep: 10, at: text }',
  context: '{ kind: context_length }',
};

const agentFile = (api: Api, style: MistakeStyle, stream: boolean): string =>
  `${api}-${style}-${stream ? 'streamed' : 'whole'}.agent.ts`;
const nameOf = (api: Api, style: MistakeStyle, stream: boolean, tag: string): string =>
  `${api}-${style}-${stream ? 'streamed' : 'whole'}-${tag}`;

const scenario = (
  api: Api,
  style: MistakeStyle,
  stream: boolean,
  tag: string,
  fault: string,
  call: number,
): string => `name: ${nameOf(api, style, stream, tag)}
services: [${HELPDESK}]
model:
  api: ${api}
${OPEN_TICKET_PLAN}faults:
  - match: { tool: ${ROUTE[api]}, call: ${call} }
    fault: ${fault}
    times: 1
${httpAgentOpensTicket(`./${agentFile(api, style, stream)}`, PRINTER_TASK)}`;

const files: Record<string, string> = {};
for (const api of ['openai', 'anthropic'] as const)
  for (const stream of [false, true])
    for (const style of ['careless', 'validating'] as const) {
      files[agentFile(api, style, stream)] = (api === 'openai' ? openaiMistakenAgent : anthropicMistakenAgent)(
        style,
        stream,
      );
      for (const [tag, fault] of Object.entries(CALL_KINDS))
        files[`${nameOf(api, style, stream, tag)}.yaml`] = scenario(api, style, stream, tag, fault, 1);
      for (const [tag, fault] of Object.entries(TEXT_KINDS))
        files[`${nameOf(api, style, stream, tag)}.yaml`] = scenario(api, style, stream, tag, fault, 2);
    }

let project: Awaited<ReturnType<typeof userProject>>;
beforeAll(async () => {
  project = await userProject('model-mistakes', files, ['openai', '@anthropic-ai/sdk']);
});
afterAll(() => project.cleanup());

interface Cell {
  readonly scenario: string;
  readonly verdicts: readonly { readonly status: string; readonly failed?: readonly string[] }[];
  readonly trials: readonly {
    readonly checks: readonly { name: string; verdict: { valid: unknown; message?: string } }[];
  }[];
}

/** Runs every kind's scenario for one agent in one run; its cells by scenario name. */
async function runAll(api: Api, style: MistakeStyle, stream: boolean): Promise<Map<string, Cell>> {
  const tags = [...Object.keys(CALL_KINDS), ...Object.keys(TEXT_KINDS)];
  const out = `out-${api}-${style}-${stream}`;
  const r = await inProcess(
    [
      'run',
      ...tags.map((t) => `${nameOf(api, style, stream, t)}.yaml`),
      '--k',
      '1',
      // The claim is each cell's verdict: the agents run in this process, as the binary's own
      // case above runs them on its workers (a worker per run loads tsx and both SDKs again).
      '--workers',
      '0',
      '--out',
      out,
      '--reporter',
      'json',
    ],
    { cwd: project.path },
  );
  expect(r.code, r.stdout + r.stderr).toBe(1);
  const report = JSON.parse(await readFile(join(project.path, out, 'faultline.json'), 'utf8')) as { cells: Cell[] };
  return new Map(report.cells.map((c) => [c.scenario, c]));
}

const mistakesMessage = (cell: Cell): string =>
  String(cell.trials[0]?.checks.find((c) => c.name === 'model-mistakes')?.verdict.message ?? '');

describe('through the built CLI', () => {
  it('catches a careless openai agent sending on malformed arguments (streamed), and passes a validating one', async () => {
    await writeFile(
      join(project.path, 'bin.yaml'),
      scenario('openai', 'careless', true, 'bin', CALL_KINDS['malformed']!, 1),
    );
    const bad = await faultline(['run', 'bin.yaml', '--k', '1', '--out', 'out-bin', '--reporter', 'json'], {
      cwd: project.path,
    });
    expect(bad.code, bad.stdout + bad.stderr).toBe(1);
    const report = JSON.parse(await readFile(join(project.path, 'out-bin', 'faultline.json'), 'utf8')) as {
      cells: Cell[];
    };
    expect(mistakesMessage(report.cells[0]!)).toMatch(
      /^the model's malformed_arguments answer to http-1 at t=0ms called open_ticket\(.*\), and the agent sent it on to open_ticket \(http-2, POST https:\/\/helpdesk\.example\.test\/api\/tickets\) at t=\d+ms without asking the model again: validate the call and feed the error back, or stop \(R16\)$/,
    );
    // The passing agent is a variation of the same path: in process, the agent in this process too
    // (its verdict is the claim; the run above ran the agent on a worker).
    const good = await inProcess(
      ['run', `${nameOf('openai', 'validating', true, 'malformed')}.yaml`, '--k', '1', '--workers', '0'],
      { cwd: project.path },
    );
    expect(good.code, good.stdout + good.stderr).toBe(0);
  });
});

describe.each(['openai', 'anthropic'] as const)('%s', (api) => {
  it.each([false, true])(
    'streamed %s: every kind caught on the careless agent, none on the validating one',
    async (stream) => {
      const careless = await runAll(api, 'careless', stream);
      const caught = (tags: readonly string[], message: RegExp) =>
        Object.fromEntries(
          tags.map((tag) => {
            const cell = careless.get(nameOf(api, 'careless', stream, tag))!;
            return [
              tag,
              (cell.verdicts[0]?.failed ?? []).includes('model-mistakes') && message.test(mistakesMessage(cell)),
            ];
          }),
        );
      const calls = Object.keys(CALL_KINDS);
      const texts = Object.keys(TEXT_KINDS);
      expect(caught(calls, /answer to http-1 .*the agent sent it on to open_ticket .*\(R16\)$/)).toEqual(
        Object.fromEntries(calls.map((t) => [t, true])),
      );
      expect(caught(texts, /answer to http-3 .*reported the task completed on it.*\(R20\)$/)).toEqual(
        Object.fromEntries(texts.map((t) => [t, true])),
      );
      // Past the context window the validating agent stops honestly (unknown): only the goal is missed.
      const validating = await runAll(api, 'validating', stream);
      const verdicts = Object.fromEntries([...validating].map(([name, c]) => [name, c.verdicts[0]?.failed ?? []]));
      const expected = Object.fromEntries(
        [...validating.keys()].map((name) => [name, name.endsWith('-context') ? ['goal-state'] : []]),
      );
      expect(verdicts).toEqual(expected);
    },
  );
});

describe('explore', () => {
  it("draws the model's own mistakes on a scenario with a model, and finds the careless agent's class", async () => {
    const plain = scenario('openai', 'careless', false, 'explored', '{ kind: latency, ms: 1 }', 1).replace(
      /faults:\n[\s\S]*?times: 1\n/,
      'faults: []\n',
    );
    await writeFile(join(project.path, 'explored.yaml'), plain);
    // 20 plans, not 40: seed 1 finds both classes at plan 15 (and 40 plans found two more classes,
    // with two more shrinks, not checked here); the classes are the claim, not the count.
    const r = await inProcess(['explore', 'explored.yaml', '--runs', '20', '--seed', '1', '--out', 'out-explore'], {
      cwd: project.path,
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    // Both ways of the careless agent, each shrunk to the one model-route rule that shows it.
    expect(r.stdout).toMatch(/model-mistakes\/R16 at plan \d+; shrunk in \d+ steps? to 1 fault rule/);
    expect(r.stdout).toMatch(/model-mistakes\/R20 at plan \d+; shrunk in \d+ steps? to 1 fault rule/);
  });
});
