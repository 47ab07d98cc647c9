import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AGENT_OUTCOMES, History, VirtualClock, type Claim } from '../core/index.js';
import type { ToolExecutor } from '../runtime/ToolExecutor.js';
import { defineAgent, endOf, parsedEnd, plainEnd, runAgentFunction, type AgentContext } from './agentFunction.js';
import type { ModelAction } from '../model/model.js';
import { FakeExecutor, fail, ok } from './testing/FakeExecutor.js';

const agent = defineAgent(async ({ task, tools, wait, now }) => {
  const create = tools['create_order'];
  if (!create) throw new Error('no create_order tool');
  let result = await create({ ref: task });
  if (result.kind === 'error' && result.error.retryable) {
    await wait(result.error.retry_after_ms ?? 1_000);
    result = await create({ ref: task });
  }
  const status = result.kind === 'ok' ? 'succeeded' : 'failed';
  return {
    outcome: result.kind === 'ok' ? 'completed' : 'failed',
    message: `done at ${now()}`,
    claims: [{ subject: `orders:${task}`, status }],
  };
});

describe('runAgentFunction', () => {
  it('gives the function the executor tools and the clock, and records its waits and its end', async () => {
    const clock = new VirtualClock(10_000);
    const history = new History(clock);
    const executor = new FakeExecutor(clock, {
      create_order: [fail('rate_limit', { retryable: true, retry_after_ms: 3_000 }), ok({ id: 'o1' })],
    });
    const run = await clock.run(() =>
      runAgentFunction(agent, { executor, task: 'ref-1', history, clock, caller: 'mine' }),
    );

    const claims = [{ subject: 'orders:ref-1', status: 'succeeded' }];
    expect(run).toEqual({
      kind: 'settled',
      at: 13_000,
      value: { kind: 'ended', outcome: 'completed', message: 'done at 3000', claims, turns: 0 },
    });
    expect(executor.calls.map((c) => [c.at, c.tool, c.input, c.options])).toEqual([
      [10_000, 'create_order', { ref: 'ref-1' }, { caller: 'mine' }],
      [13_000, 'create_order', { ref: 'ref-1' }, { caller: 'mine' }],
    ]);
    expect(history.events).toEqual([
      { seq: 0, t: 0, type: 'agent_wait', ms: 3_000, caller: 'mine' },
      { seq: 1, t: 3_000, type: 'agent_end', outcome: 'completed', claims, message: 'done at 3000', caller: 'mine' },
    ]);
  });

  it('fills in an empty message and no claims, and lets a throwing agent propagate', async () => {
    const clock = new VirtualClock();
    const history = new History(clock);
    const executor = new FakeExecutor(clock, {});
    const quiet = await clock.run(() =>
      runAgentFunction(async () => ({ outcome: 'handoff' }), { executor, task: 't', history, clock }),
    );
    expect(quiet).toMatchObject({
      kind: 'settled',
      value: { kind: 'ended', outcome: 'handoff', message: '', claims: [], turns: 0 },
    });

    const boom = new Error('agent bug');
    const threw = await clock.run(() =>
      runAgentFunction(() => Promise.reject(boom), { executor, task: 't', history, clock }),
    );
    expect(threw).toEqual({ kind: 'threw', error: boom, at: 0 });
    expect(history.events.map((e) => e.type)).toEqual(['agent_end']);
  });
});

describe('plainEnd', () => {
  const outcome = fc.oneof(
    fc.constantFrom<unknown>(...AGENT_OUTCOMES),
    fc.constantFrom<unknown>('done', '', 1, null, undefined, new String('completed')),
  );
  const message = fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom<unknown>(undefined, 3, null));
  const claims = fc.oneof(
    fc.constant(undefined),
    fc.constant([]),
    fc.constant([{ subject: 'svc:k', status: 'succeeded' }]),
    fc.constant('none'),
  );
  const ends = fc.oneof(
    fc.record({ outcome, message, claims, extra: fc.anything() }, { requiredKeys: [] }),
    fc.record({ outcome, message }).map((r) => Object.assign(Object.create(null) as object, r)),
    fc.anything(),
  );
  test.prop([ends])('reads an end exactly as the schema does, or leaves it to the schema', (returned) => {
    const plain = plainEnd(returned);
    if (plain === undefined) return;
    const parsed = (() => {
      try {
        return parsedEnd(returned);
      } catch {
        return 'refused';
      }
    })();
    expect(parsed).not.toBe('refused');
    const p = parsed as Exclude<typeof parsed, string>;
    expect([plain.outcome, plain.message ?? '', plain.claims ?? []]).toEqual([
      p.outcome,
      p.message ?? '',
      p.claims ?? [],
    ]);
  });

  it('takes the common ends, and leaves claims, other prototypes and bad fields to the schema', () => {
    expect(plainEnd({ outcome: 'completed' })).toEqual({ outcome: 'completed' });
    expect(plainEnd({ outcome: 'failed', message: 'no', other: 1 })).toEqual({ outcome: 'failed', message: 'no' });
    expect(plainEnd({ outcome: 'completed', claims: [] })).toBeUndefined();
    expect(plainEnd(Object.assign(Object.create(null) as object, { outcome: 'completed' }))).toBeUndefined();
    expect(plainEnd({ outcome: 'done' })).toBeUndefined();
    expect(plainEnd({ outcome: 'completed', message: 1 })).toBeUndefined();
  });
});

describe('runAgentFunction tools', () => {
  const names = fc.array(fc.constantFrom('a', 'b', '__proto__', '0', '10', 'constructor', 'then'), { maxLength: 6 });
  test.prop([names])(
    'are keyed as Object.fromEntries keyed them: same own keys in the same order, frozen, each calling its tool',
    async (list) => {
      const clock = new VirtualClock();
      const called: string[] = [];
      const executor: ToolExecutor = {
        tools: list.map((name) => ({
          name,
          description: name,
          risk: 'write',
          input: z.unknown(),
          honoursIdempotencyKeys: false,
          canQueryStatus: false,
        })),
        call: (tool) => {
          called.push(tool);
          return Promise.resolve({ kind: 'ok', value: tool, call: 'c', tool, attempts: 1 });
        },
      };
      let tools: AgentContext['tools'] | undefined;
      await clock.run(() =>
        runAgentFunction(
          async (ctx) => {
            tools = ctx.tools;
            for (const name of Object.keys(ctx.tools)) await ctx.tools[name]?.({});
            return { outcome: 'completed' };
          },
          { executor, task: 't', history: new History(clock), clock },
        ),
      );
      const before = Object.freeze(Object.fromEntries(list.map((name) => [name, 0])));
      expect(Reflect.ownKeys(tools ?? {})).toEqual(Reflect.ownKeys(before));
      expect(Object.getPrototypeOf(tools)).toBe(Object.getPrototypeOf(before));
      expect(Object.isFrozen(tools)).toBe(true);
      expect(called).toEqual(Object.keys(before));
    },
  );
});

/** `endOf` as it was before it built its event key by key: the oracle for the event and the end (so typed as `endOf`). */
const endOfBefore: typeof endOf = (returned, history, caller, standIn) => {
  const result = plainEnd(returned) ?? parsedEnd(returned);
  const message = result.message ?? '';
  const said = (c: { subject: string; status: Claim['status'] }): boolean =>
    standIn?.claims.some((s) => s.subject === c.subject && s.status === c.status) === true;
  const claims: readonly Claim[] = (result.claims ?? []).map((c) => ({
    subject: c.subject,
    status: c.status,
    ...(c.note !== undefined && { note: c.note }),
    ...(said(c) && { by: 'stand-in' as const }),
  }));
  const passedOn = standIn !== undefined && standIn.outcome === result.outcome && standIn.message === message;
  history.record({
    type: 'agent_end',
    outcome: result.outcome,
    claims,
    message,
    ...(passedOn && { by: 'stand-in' as const }),
    ...(caller !== undefined && { caller }),
  });
  return { kind: 'ended', outcome: result.outcome, message, claims, turns: 0 };
};

describe('endOf', () => {
  const outcome = fc.constantFrom(...AGENT_OUTCOMES);
  const claim = fc.record(
    {
      subject: fc.constantFrom('svc:a', 'svc:b'),
      status: fc.constantFrom('succeeded' as const, 'failed' as const),
      note: fc.option(fc.constant('n'), { nil: undefined }),
    },
    { requiredKeys: ['subject', 'status'] },
  );
  const returned = fc.record(
    { outcome, message: fc.constantFrom('', 'done'), claims: fc.array(claim, { maxLength: 3 }) },
    { requiredKeys: ['outcome'] },
  );
  const standIn = fc.option(
    fc.record({
      kind: fc.constant('final' as const),
      outcome,
      message: fc.constantFrom('', 'done'),
      claims: fc.array(claim, { maxLength: 2 }),
    }),
    { nil: undefined },
  );
  test.prop([returned, fc.option(fc.constantFrom('agent-1', ''), { nil: undefined }), standIn])(
    'records the event (keys in the same order) and gives the end the spread-and-copy form gave',
    (end, caller, stand) => {
      const clock = new VirtualClock(5);
      const [mine, theirs] = [new History(clock), new History(clock)];
      const a = endOf(end, mine, caller, stand as Extract<ModelAction, { kind: 'final' }> | undefined);
      const b = endOfBefore(end, theirs, caller, stand as Extract<ModelAction, { kind: 'final' }> | undefined);
      expect(JSON.stringify(a)).toBe(JSON.stringify(b));
      expect(JSON.stringify(mine.events)).toBe(JSON.stringify(theirs.events));
    },
  );
});
