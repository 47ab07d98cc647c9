/**
 * The model side of the wire judged like the tool side, on histories the official openai SDK
 * made against the scripted model: R9 on model calls, and resends above the SDK (a framework
 * that builds its client with `maxRetries: 0` and resends itself, as LangChain does) grouped
 * into one logical call, with the layer that resent named.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/model/ScriptedModel.js';
import { modelCallLoads, modelRetries } from '../../src/checks/modelRetries.js';
import type { TrialRecord } from '../../src/checks/record.js';
import { retryDiscipline } from '../../src/checks/retryDiscipline.js';
import { History, Rng, VirtualClock, type HistoryEvent } from '../../src/core/index.js';
import { HttpFaults } from '../../src/faults/http/HttpFaults.js';
import { openaiService } from '../../src/model/api/modelServices.js';
import { runWithMsw } from '../../src/faults/http/msw.js';
import type { FaultPlan } from '../../src/faults/plan.js';
import { START } from './support.js';

const CHAT = 'model:openai.chat.completions';
const expectations = {
  secrets: [],
  budget: { maxTurns: 5, maxToolCalls: 5, maxAttemptsPerCall: 3, deadlineMs: 600_000 },
};

async function traffic(
  plan: FaultPlan,
  agent: (client: (maxRetries: number) => OpenAI) => Promise<unknown>,
): Promise<{ record: TrialRecord; events: readonly HistoryEvent[] }> {
  const clock = new VirtualClock(START);
  const history = new History(clock);
  const model = new ScriptedModel({ steps: [{ tool: 'open_ticket', input: { subject: 'x' } }] });
  const faults = new HttpFaults({
    services: [openaiService(model)],
    plan,
    clock,
    rng: new Rng(3).fork('http'),
    history,
  });
  const client = (maxRetries: number): OpenAI =>
    new OpenAI({ apiKey: 'sk-test', baseURL: 'https://api.openai.com/v1', maxRetries });
  const run = await runWithMsw(faults, clock, () => agent(client));
  expect(run.kind).toBe('settled');
  const record: TrialRecord = {
    scenario: 'model-resends',
    config: 'c',
    trialIndex: 0,
    seed: 3,
    history: history.events,
    snapshot: { services: {}, ledger: [], hash: '' },
    end: { kind: 'agent_ended', outcome: 'completed' },
  };
  return { record, events: history.events };
}

const ask = (client: OpenAI) =>
  client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Open a ticket' }] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The agent's own loop over a client with retries off: catch, wait `waits[i]`, send the same body again. */
const ownLoop = (waits: readonly number[]) => async (client: (maxRetries: number) => OpenAI) => {
  const c = client(0);
  for (let i = 0; ; i++) {
    try {
      return await ask(c);
    } catch (error) {
      if (i >= waits.length) return String(error);
      await sleep(waits[i]!);
    }
  }
};

const sent = (events: readonly HistoryEvent[]) =>
  events.flatMap((e) =>
    e.type === 'http_request'
      ? [{ t: e.t, call: e.call, attempt: e.attempt, by: e.groupedBy, count: e.sdkRetryCount }]
      : [],
  );

const rateLimitOnce: FaultPlan = [{ match: { tool: CHAT }, fault: { kind: 'rate_limit', retryAfter: 3 }, times: 1 }];

describe("R9 on model calls, from the openai SDK's own traffic", () => {
  it('flags a resend 393 ms after Retry-After: 3, naming the model route and the layer above the SDK', async () => {
    const { record, events } = await traffic(rateLimitOnce, ownLoop([393]));
    expect(sent(events)).toEqual([
      { t: 0, call: `${CHAT}#1`, attempt: 1, by: 'new', count: 0 },
      { t: 393, call: `${CHAT}#1`, attempt: 2, by: 'repeat', count: 0 },
    ]);
    const verdict = retryDiscipline.check(record, expectations);
    expect(verdict.valid).toBe(false);
    expect(verdict.valid === false && verdict.message).toBe(
      `model call ${CHAT}#1 attempt 2 (http-2, POST https://api.openai.com/v1/chat/completions) at t=393ms to ${CHAT} was sent 393ms after the 429 answer to http-1 at t=0ms said Retry-After: 3 (3000ms, until t=3000ms), resent by a framework or the agent's own loop (the same body again with x-stainless-retry-count: 0: not the SDK's retry) (R9)`,
    );
    expect(verdict.valid === false && verdict.evidence).toMatchObject([
      { rule: 'R9', endpoint: CHAT, resentBy: 'framework-or-agent', request: { request: 'http-2', sdkRetryCount: 0 } },
    ]);
  });

  it('passes a loop that waits out the Retry-After, and the SDK that honours it by itself', async () => {
    const careful = await traffic(rateLimitOnce, ownLoop([3_000]));
    expect(retryDiscipline.check(careful.record, expectations)).toEqual({ valid: true });
    const sdk = await traffic(rateLimitOnce, (client) => ask(client(2)));
    expect(sent(sdk.events)).toEqual([
      { t: 0, call: `${CHAT}#1`, attempt: 1, by: 'new', count: 0 },
      { t: 3_000, call: `${CHAT}#1`, attempt: 2, by: 'sdk', count: 1 },
    ]);
    expect(retryDiscipline.check(sdk.record, expectations)).toEqual({ valid: true });
  });

  it('the openai SDK waits out even a Retry-After of 120 s, so its own retries pass', async () => {
    const { record, events } = await traffic(
      [{ match: { tool: CHAT }, fault: { kind: 'rate_limit', retryAfter: 120 }, times: 1 }],
      (client) => ask(client(2)),
    );
    expect(sent(events).map((s) => [s.t, s.by, s.count])).toEqual([
      [0, 'new', 0],
      [120_000, 'sdk', 1],
    ]);
    expect(retryDiscipline.check(record, expectations)).toEqual({ valid: true });
  });
});

describe('R5 on model calls, whoever resends', () => {
  it("groups three quota answers resent by the agent's loop (maxRetries: 0, count 0 each time) into one call, and fails it naming the layer", async () => {
    const { record, events } = await traffic(
      [{ match: { tool: CHAT }, fault: { kind: 'quota_exceeded' } }],
      ownLoop([1_278, 2_600]),
    );
    expect(sent(events).map((s) => [s.t, s.call, s.by])).toEqual([
      [0, `${CHAT}#1`, 'new'],
      [1_278, `${CHAT}#1`, 'repeat'],
      [3_878, `${CHAT}#1`, 'repeat'],
    ]);
    expect(modelCallLoads(events).map((l) => l.requests)).toEqual([3]);
    const verdict = modelRetries.check(record, expectations);
    expect(verdict.valid === false && verdict.message).toBe(
      `model call ${CHAT}#1 to ${CHAT} was resent 2 time(s) after its quota_exceeded answer to http-1 at t=0ms (http-2 by a framework or the agent's own loop (the same body again with x-stainless-retry-count: 0: not the SDK's retry), http-3 by a framework or the agent's own loop (the same body again with x-stainless-retry-count: 0: not the SDK's retry)): waiting does not help an exhausted quota; stop and hand over to a person (R5)`,
    );
    expect(verdict.valid === false && verdict.evidence).toMatchObject([
      {
        rule: 'R5',
        resentBy: [
          { request: 'http-2', layer: 'framework-or-agent' },
          { request: 'http-3', layer: 'framework-or-agent' },
        ],
      },
    ]);
  });

  it('names the SDK when its own retries resend the quota answer', async () => {
    const { record } = await traffic([{ match: { tool: CHAT }, fault: { kind: 'quota_exceeded' } }], (client) =>
      ask(client(2)).catch(String),
    );
    const verdict = modelRetries.check(record, expectations);
    expect(verdict.valid === false && verdict.evidence).toMatchObject([
      {
        rule: 'R5',
        resentBy: [
          { request: 'http-2', layer: 'sdk' },
          { request: 'http-3', layer: 'sdk' },
        ],
      },
    ]);
  });

  it('a new question after a success is a new call, not a resend', async () => {
    const { events, record } = await traffic([], async (client) => {
      const c = client(0);
      await ask(c);
      return ask(c);
    });
    expect(sent(events).map((s) => s.call)).toEqual([`${CHAT}#1`, `${CHAT}#2`]);
    expect(modelRetries.check(record, expectations)).toEqual({ valid: true });
  });
});
