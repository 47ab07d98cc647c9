import { describe, expect, it } from 'vitest';
import { History, VirtualClock } from '../core/index.js';
import { runAgentLoop, type AgentLoopOptions } from './loop.js';
import type { Model, ModelAction, ModelInput } from '../model/model.js';
import { FakeExecutor, fail, ok, type FakeAnswer } from './testing/FakeExecutor.js';

/** A model that plays fixed actions and keeps what it was shown. */
class FixedModel implements Model {
  readonly name = 'fixed';
  readonly seen: ModelInput[] = [];
  constructor(private readonly actions: readonly ModelAction[]) {}
  next(input: ModelInput): Promise<ModelAction> {
    this.seen.push(input);
    const action = this.actions[this.seen.length - 1];
    return action ? Promise.resolve(action) : Promise.reject(new Error('out of actions'));
  }
}

const setup = (actions: readonly ModelAction[], answers: Readonly<Record<string, readonly FakeAnswer[]>>) => {
  const clock = new VirtualClock();
  const history = new History(clock);
  const executor = new FakeExecutor(clock, answers);
  const model = new FixedModel(actions);
  const run = (more: Partial<AgentLoopOptions> = {}) =>
    clock.run(() => runAgentLoop({ model, executor, task: 'buy one', maxTurns: 10, history, clock, ...more }));
  return { clock, history, executor, model, run };
};

describe('runAgentLoop', () => {
  it('records each turn, runs calls in order with their turn, shows rendered feedback, and ends on final', async () => {
    const claims = [{ subject: 'orders:ref-1', status: 'succeeded' as const }];
    const t = setup(
      [
        {
          kind: 'tool_calls',
          calls: [
            { id: 'tu_1', tool: 'create_order', input: { ref: 'ref-1' } },
            { tool: 'send_email', input: { to: 'a' } },
          ],
        },
        { kind: 'wait', ms: 1_500 },
        { kind: 'final', outcome: 'completed', message: 'ordered', claims },
      ],
      {
        create_order: [ok({ id: 'ord-1' })],
        send_email: [fail('rate_limit', { retryable: true, retry_after_ms: 1_500 })],
      },
    );
    const run = await t.run({ caller: 'main' });

    expect(run).toEqual({
      kind: 'settled',
      at: 1_500,
      value: { kind: 'ended', outcome: 'completed', message: 'ordered', claims, turns: 3 },
    });
    expect(t.executor.calls.map((c) => [c.call, c.tool, c.options])).toEqual([
      ['call-1', 'create_order', { turn: 1, caller: 'main' }],
      ['call-2', 'send_email', { turn: 1, caller: 'main' }],
    ]);
    const events = t.history.events.map((e) => {
      const { seq: _seq, text: _text, ...rest } = e as typeof e & { text?: string };
      return rest;
    });
    expect(events).toEqual([
      {
        type: 'model_turn',
        t: 0,
        turn: 1,
        action: 'tool_calls',
        caller: 'main',
        calls: [
          { call: 'tu_1', tool: 'create_order', input: { ref: 'ref-1' } },
          { call: 'turn-1.2', tool: 'send_email', input: { to: 'a' } },
        ],
      },
      { type: 'feedback', t: 0, turn: 1, call: 'call-1', format: 'openai', isError: false, caller: 'main' },
      { type: 'feedback', t: 0, turn: 1, call: 'call-2', format: 'openai', isError: true, caller: 'main' },
      { type: 'model_turn', t: 0, turn: 2, action: 'wait', waitMs: 1_500, caller: 'main' },
      { type: 'agent_wait', t: 0, turn: 2, ms: 1_500, caller: 'main' },
      { type: 'model_turn', t: 1_500, turn: 3, action: 'final', caller: 'main' },
      { type: 'agent_end', t: 1_500, turn: 3, outcome: 'completed', claims, message: 'ordered', caller: 'main' },
    ]);

    // R17: the failed call is shown to the model, which decides what comes next.
    const second = t.model.seen[1];
    expect(second?.now).toBe(0);
    expect(t.model.seen[2]?.now).toBe(1_500);
    expect(second?.tools.map((x) => x.name)).toEqual(['create_order', 'send_email']);
    expect(second?.messages.map((m) => (m.role === 'tool' ? `tool ${m.call} ${m.result.kind}` : m.role))).toEqual([
      'user',
      'assistant',
      'tool tu_1 ok',
      'tool turn-1.2 error',
    ]);
    const shown = second?.messages[3];
    expect(shown?.role === 'tool' && shown.text).toMatch(
      /^Error \[rate_limit\] after 1 attempt\(s\).*Wait at least 1500 ms/,
    );
    const feedback = t.history.events.filter((e) => e.type === 'feedback');
    expect(feedback.map((e) => e.type === 'feedback' && e.text)).toEqual([
      '{"id":"ord-1"}',
      shown?.role === 'tool' && shown.text,
    ]);
  });

  it.each([['main'], [undefined]])(
    'records each event with its keys in the order record gave them, the caller (%s) last',
    async (caller) => {
      const actions: ModelAction[] = [
        { kind: 'tool_calls', calls: [{ tool: 'create_order', input: { ref: 'ref-1' } }] },
        { kind: 'wait', ms: 10 },
        { kind: 'final', outcome: 'completed', message: 'ordered', claims: [] },
      ];
      const t = setup(actions, { create_order: [ok({ id: 'ord-1' })] });
      await t.run(caller === undefined ? {} : { caller });
      const last = caller === undefined ? [] : ['caller'];
      expect(t.history.events.map((e) => Object.keys(e))).toEqual([
        ['seq', 't', 'type', 'turn', 'action', 'calls', ...last],
        ['seq', 't', 'type', 'turn', 'call', 'format', 'isError', 'text', ...last],
        ['seq', 't', 'type', 'turn', 'action', 'waitMs', ...last],
        ['seq', 't', 'type', 'turn', 'ms', ...last],
        ['seq', 't', 'type', 'turn', 'action', ...last],
        ['seq', 't', 'type', 'turn', 'outcome', 'claims', 'message', ...last],
      ]);
      expect(t.history.events.map((e) => [e.seq, e.t])).toEqual([
        [0, 0],
        [1, 0],
        [2, 0],
        [3, 0],
        [4, 10],
        [5, 10],
      ]);
    },
  );

  it('renders feedback in the format asked for', async () => {
    const t = setup(
      [
        { kind: 'tool_calls', calls: [{ tool: 'create_order', input: {} }] },
        { kind: 'final', outcome: 'failed', message: 'no', claims: [] },
      ],
      { create_order: [fail('invalid_argument')] },
    );
    await t.run({ format: 'claude' });
    expect(t.history.events.find((e) => e.type === 'feedback')).toMatchObject({ format: 'claude', isError: true });
  });

  it('stops after maxTurns without a final answer and records no agent_end', async () => {
    const t = setup(
      Array.from({ length: 5 }, () => ({ kind: 'wait', ms: 100 }) as const),
      {},
    );
    const run = await t.run({ maxTurns: 3 });
    expect(run).toEqual({ kind: 'settled', at: 300, value: { kind: 'max_turns', turns: 3 } });
    expect(t.history.events.map((e) => e.type)).toEqual([
      'model_turn',
      'agent_wait',
      'model_turn',
      'agent_wait',
      'model_turn',
      'agent_wait',
    ]);
  });

  it('lets exceptions from the model or the executor propagate', async () => {
    const fromModel = setup([], {});
    expect(await fromModel.run()).toMatchObject({ kind: 'threw', error: new Error('out of actions') });
    const fromExecutor = setup([{ kind: 'tool_calls', calls: [{ tool: 'create_order', input: {} }] }], {
      create_order: [],
    });
    expect(await fromExecutor.run()).toMatchObject({
      kind: 'threw',
      error: new Error('FakeExecutor: no answer left for create_order'),
    });
  });
});
