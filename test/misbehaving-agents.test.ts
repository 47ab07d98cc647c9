import { describe, expect, it } from 'vitest';
import { MAX_INPUT_DEPTH, type AgentFn } from '../src/agent/agentFunction.js';
import type { EventOf, HistoryEvent, Verdict } from '../src/core/index.js';
import { formatTimeline } from '../src/report/timeline.js';
import { runMatrix } from '../src/runner/run.js';
import { defineScenario, type Scenario, type ScenarioInput } from '../src/scenario/scenario.js';
import { runTrial, type TrialResult, type TrialSummary } from '../src/runner/trial.js';
import { RetryConfigSchema, rulebookDefault, type RetryConfig } from '../src/runtime/config.js';

/**
 * A misbehaving agent (throws, loops, hangs) ends its own trial with a verdict, on the
 * virtual clock, and never ends the run.
 */

const ORDER = { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 };

type Parts = Omit<ScenarioInput, 'name' | 'agent'>;

const fnScenario = (name: string, fn: AgentFn, parts: Parts = {}): Scenario =>
  defineScenario({ name, ...parts, agent: { kind: 'function', task: `agent ${name}`, fn } });

const run = (scenario: Scenario, config: RetryConfig = rulebookDefault): Promise<TrialResult> =>
  runTrial({ scenario, config, runSeed: 3, trialIndex: 0 });

const events = <K extends HistoryEvent['type']>(trial: TrialResult, type: K): EventOf<K>[] =>
  trial.history.filter((e): e is EventOf<K> => e.type === type);

function verdictOf(trial: TrialResult, checker: string): Verdict {
  const found = trial.checks.find((c) => c.name === checker);
  if (!found) throw new Error(`checker ${checker} did not run:\n${formatTimeline(trial.history)}`);
  return found.verdict;
}

function messageOf(trial: TrialResult, checker: string): string {
  const v = verdictOf(trial, checker);
  if (v.valid !== false)
    throw new Error(`expected ${checker} to fail, got ${JSON.stringify(v)}:\n${formatTimeline(trial.history)}`);
  return v.message;
}

const failedOf = (trial: TrialSummary): readonly string[] => (trial.status === 'failed' ? trial.failed : []);

/** Creates ref-1 and says so: the well-behaved neighbour of every misbehaving agent. */
const goodAgent: AgentFn = async ({ tools }) => {
  const r = await tools['create_order']!(ORDER);
  return r.kind === 'ok'
    ? { outcome: 'completed', claims: [{ subject: 'orders:ref-1', status: 'succeeded' }] }
    : { outcome: 'failed', claims: [{ subject: 'orders:ref-1', status: 'failed' }] };
};
const good = fnScenario('good-agent', goodAgent, { goal: { effects: { 'order.created': 1 } } });

const throwsAtOnce = fnScenario('throws-at-once', () => Promise.reject(new Error('boom')));
const throwsAfterCall = fnScenario('throws-after-call', async ({ tools }) => {
  await tools['create_order']!(ORDER);
  throw new TypeError("Cannot read properties of undefined (reading 'orderId')");
});
const loopsOnTool = fnScenario(
  'loops-on-tool',
  async ({ tools }) => {
    for (;;) await tools['find_order_by_reference']!({ clientReference: 'ref-1' });
  },
  { budget: { maxToolCalls: 5 } },
);
const loopsOnWait = fnScenario(
  'loops-on-wait',
  async ({ wait }) => {
    for (;;) await wait(1000);
  },
  { budget: { deadlineMs: 60_000 } },
);
const neverSettles = fnScenario('never-settles', () => new Promise(() => {}));
const maxTurns = defineScenario({
  name: 'scripted-max-turns',
  budget: { maxTurns: 2 },
  agent: {
    kind: 'scripted',
    task: 'Look up three references',
    plan: {
      steps: ['a', 'b', 'c'].map((ref) => ({ tool: 'find_order_by_reference', input: { clientReference: ref } })),
    },
  },
});

describe('an agent that throws', () => {
  it('ends its trial as crashed; goal-state fails with the error, budget has nothing to say', async () => {
    const trial = await run(throwsAtOnce);
    expect(trial.end).toEqual({ kind: 'crashed', message: 'Error: boom' });
    expect(trial.status).toBe('failed');
    expect(failedOf(trial)).toContain('goal-state');
    expect(failedOf(trial)).not.toContain('budget');
    expect(messageOf(trial, 'goal-state')).toBe('the agent crashed before finishing: Error: boom');
    expect(trial.history.at(-1)).toMatchObject({ type: 'trial_end', status: 'crashed', message: 'Error: boom' });
    // It never answered, so it claimed nothing: honesty has nothing to hold against it.
    expect(verdictOf(trial, 'honesty')).toEqual({ valid: true });
  });

  it('keeps what it did before the crash: the order it created is judged', async () => {
    const trial = await run(throwsAfterCall);
    expect(trial.end).toEqual({
      kind: 'crashed',
      message: "TypeError: Cannot read properties of undefined (reading 'orderId')",
    });
    expect(events(trial, 'outcome').map((o) => `${o.call} ${o.tool} ${o.result}`)).toEqual(['call-1 create_order ok']);
    expect(trial.snapshot.ledger.map((e) => `${e.effect} ${e.key}`)).toEqual(['order.created ref-1']);
    expect(messageOf(trial, 'goal-state')).toBe(
      "the agent crashed before finishing: TypeError: Cannot read properties of undefined (reading 'orderId')",
    );
  });

  it('a synchronous throw and a thrown non-Error are crashes too', async () => {
    const sync = (() => {
      throw new RangeError('sync');
    }) as unknown as AgentFn;
    const plain = (async () => {
      // Deliberately not an Error: some libraries throw strings.
      throw 'no more tokens';
    }) as AgentFn;
    expect((await run(fnScenario('throws-sync', sync))).end).toEqual({ kind: 'crashed', message: 'RangeError: sync' });
    expect((await run(fnScenario('throws-string', plain))).end).toEqual({ kind: 'crashed', message: 'no more tokens' });
  });

  it('an agent function that returns nothing crashes instead of ending with no outcome', async () => {
    const trial = await run(fnScenario('returns-nothing', (async () => undefined) as unknown as AgentFn));
    expect(trial.end.kind).toBe('crashed');
    expect(trial.end.kind === 'crashed' && trial.end.message).toMatch(
      /^TypeError: the agent function returned undefined; expected \{ outcome: completed \| failed \| handoff \| unknown/,
    );
    expect(events(trial, 'agent_end')).toEqual([]);
  });

  it('an agent function that reports an outcome outside the vocabulary crashes with what was wrong', async () => {
    const trial = await run(
      fnScenario('returns-bad-outcome', (async () => ({ outcome: 'done' })) as unknown as AgentFn),
    );
    expect(trial.end.kind === 'crashed' && trial.end.message).toMatch(/outcome: Invalid option/);
  });

  it('a scripted model whose placeholder cannot be resolved crashes its trial', async () => {
    const scenario = defineScenario({
      name: 'scripted-bad-placeholder',
      agent: {
        kind: 'scripted',
        task: 'Create and pay',
        plan: {
          steps: [
            { name: 'order', tool: 'create_order', input: ORDER },
            { tool: 'get_order', input: { orderId: '$order.order_id' } },
          ],
        },
      },
    });
    const trial = await run(scenario);
    expect(trial.end).toEqual({
      kind: 'crashed',
      message: 'Error: placeholder $order.order_id: step "order" returned no field "order_id"',
    });
    expect(failedOf(trial)).toContain('goal-state');
  });
});

describe('an agent that loops forever calling a tool', () => {
  it('is stopped by the harness cap; budget names the calls over the limit', async () => {
    const trial = await run(loopsOnTool);
    expect(trial.end).toEqual({ kind: 'budget_exceeded', limit: 'tool_calls', at: 0 });
    expect(failedOf(trial)).toEqual(expect.arrayContaining(['budget', 'goal-state']));

    const calls = events(trial, 'tool_call');
    // The backstop lets a runaway agent overshoot its budget a little, never without bound.
    expect(calls.length).toBeGreaterThan(5);
    expect(calls.length).toBeLessThanOrEqual(5 * 3 + 10);
    const message = messageOf(trial, 'budget');
    expect(message).toContain(
      `the agent made ${calls.length} tool calls, the limit is 5 (over the limit: call-6 find_order_by_reference, call-7 find_order_by_reference`,
    );
    expect(message).toContain('the trial was stopped at t=0ms for exceeding its tool_calls limit');
    const v = verdictOf(trial, 'budget');
    expect(v.valid === false && v.evidence).toContainEqual(
      expect.objectContaining({ toolCalls: calls.length, limit: 5 }),
    );
  });

  it('a loop on a slow tool still ends, on virtual time', async () => {
    const slow = fnScenario(
      'loops-on-slow-tool',
      async ({ tools }) => {
        for (;;) await tools['find_order_by_reference']!({ clientReference: 'ref-1' });
      },
      {
        budget: { maxToolCalls: 5, deadlineMs: 600_000 },
        faults: [{ match: { tool: 'find_order_by_reference' }, fault: { kind: 'latency', ms: 1000 } }],
      },
    );
    const trial = await run(slow);
    const calls = events(trial, 'tool_call').length;
    expect(trial.end).toEqual({ kind: 'budget_exceeded', limit: 'tool_calls', at: calls * 1000 });
  });
});

describe('an agent that loops forever sleeping', () => {
  it('is stopped at the scenario deadline on the virtual clock, in no real time to speak of', async () => {
    // A real-time measurement: a loaded machine can stretch one run, so it is retried (up to 3
    // times) and the fastest must be under 5 s; waits served in real time take 60 s every time.
    const timed = async () => {
      const started = Date.now();
      const trial = await run(loopsOnWait);
      return { trial, ms: Date.now() - started };
    };
    let fastest = await timed();
    for (let retry = 1; retry < 3 && fastest.ms >= 5_000; retry++) {
      const again = await timed();
      if (again.ms < fastest.ms) fastest = again;
    }
    expect(fastest.ms).toBeLessThan(5_000);
    const { trial } = fastest;
    expect(trial.end).toEqual({ kind: 'budget_exceeded', limit: 'time', at: 60_000 });
    expect(failedOf(trial)).toEqual(expect.arrayContaining(['budget', 'goal-state']));
    expect(messageOf(trial, 'budget')).toBe('the trial was stopped at t=60000ms for exceeding its time limit');
    expect(messageOf(trial, 'goal-state')).toBe('the agent was stopped at t=60000ms for exceeding its time limit');
    const waits = events(trial, 'agent_wait');
    expect(waits.every((w) => w.ms === 1000)).toBe(true);
    expect(waits.at(-1)?.t).toBe(60_000);
  });
});

describe('an agent that awaits a promise that never settles', () => {
  it('is detected as hung when nothing is left to run', async () => {
    const trial = await run(neverSettles);
    expect(trial.end).toEqual({ kind: 'hung', at: 0 });
    expect(failedOf(trial)).toEqual(expect.arrayContaining(['budget', 'goal-state']));
    expect(messageOf(trial, 'budget')).toBe('the agent hung at t=0ms with nothing left to run');
    expect(messageOf(trial, 'goal-state')).toBe('the agent hung at t=0ms and never finished');
  });

  it('hangs are found after virtual time has passed, too', async () => {
    const trial = await run(
      fnScenario('hangs-after-wait', async ({ wait }) => {
        await wait(2_500);
        await new Promise<never>(() => {});
        return { outcome: 'completed' };
      }),
    );
    expect(trial.end).toEqual({ kind: 'hung', at: 2_500 });
    expect(messageOf(trial, 'budget')).toBe('the agent hung at t=2500ms with nothing left to run');
  });

  it('a tool call that can never answer (no timeout, no deadline) hangs the agent, not the run', async () => {
    const waitsForever = RetryConfigSchema.parse({ name: 'waits-forever', perCallTimeoutMs: null, deadlineMs: null });
    const scenario = fnScenario('hangs-in-tool', goodAgent, {
      faults: [{ match: { tool: 'create_order' }, fault: { kind: 'timeout' } }],
    });
    const trial = await run(scenario, waitsForever);
    expect(trial.end).toEqual({ kind: 'hung', at: 0 });
    expect(events(trial, 'attempt').map((a) => `${a.call} ${a.tool}`)).toEqual(['call-1 create_order']);
    expect(events(trial, 'outcome')).toEqual([]);
  });
});

describe('a scripted model that exceeds maxTurns', () => {
  it('ends as budget_exceeded on turns after exactly maxTurns turns', async () => {
    const trial = await run(maxTurns);
    expect(trial.end).toEqual({ kind: 'budget_exceeded', limit: 'turns', at: 0 });
    expect(events(trial, 'model_turn').map((t) => t.turn)).toEqual([1, 2]);
    expect(events(trial, 'tool_call').map((c) => c.input)).toEqual([
      { clientReference: 'a' },
      { clientReference: 'b' },
    ]);
    expect(events(trial, 'agent_end')).toEqual([]);
    expect(failedOf(trial)).toEqual(expect.arrayContaining(['budget', 'goal-state']));
    expect(messageOf(trial, 'budget')).toBe('the trial was stopped at t=0ms for exceeding its turns limit');
  });
});

describe('known bugs: waits that do not advance the virtual clock (these fail until src/ is fixed)', () => {
  // `wait(0)` forever never moves virtual time, so neither the deadline nor the idle check
  // ever fires: the real `for (;;) await wait(0)` runs until the process is killed. This
  // agent gives up by itself after 50,000 waits, only so the suite cannot hang; the harness
  // should have stopped it long before (it now ends "completed" and passes every checker).
  it('an agent spinning on wait(0) is stopped by the harness, not by itself', async () => {
    const spins = fnScenario('spins-on-wait-zero', async ({ wait }) => {
      for (let i = 0; i < 50_000; i++) await wait(0);
      return { outcome: 'completed' };
    });
    const trial = await run(spins);
    expect(trial.end.kind).not.toBe('agent_ended');
    expect(trial.status).toBe('failed');
    expect(failedOf(trial)).toContain('budget');
  });

  // `Math.max(0, NaN)` is NaN: the clock's time becomes NaN, every later event is stamped
  // t=NaN, the ledger's `at` serialises as null, and every time limit compares false, so a
  // 400 s sleep past a 300 s deadline passes. `wait(result.error.retry_after_ms)` with no
  // hint is exactly this call.
  it('wait(NaN) neither corrupts the clock nor lets the agent sleep past the deadline', async () => {
    const trial = await run(
      fnScenario('waits-nan', async ({ wait, tools }) => {
        await wait(Number.NaN);
        await tools['create_order']!(ORDER);
        await wait(400_000);
        return { outcome: 'completed', claims: [{ subject: 'orders:ref-1', status: 'succeeded' }] };
      }),
    );
    expect(trial.history.filter((e) => !Number.isFinite(e.t)).map((e) => `#${e.seq} ${e.type}`)).toEqual([]);
    expect(trial.snapshot.ledger.every((e) => Number.isFinite(e.at))).toBe(true);
    expect(trial.status).toBe('failed');
  });
});

describe('an agent that hands a tool a value nested deeper than faultline takes', () => {
  const nested = (depth: number): unknown => {
    let v: unknown = 'leaf';
    for (let i = 0; i < depth; i++) v = { inner: v };
    return v;
  };
  /** Sends the order with `note` nested `depth` levels deep (the input itself is one level more), and says what the call did. */
  const sends = (depth: number) =>
    fnScenario(`nests-${depth}`, async ({ tools }) => {
      try {
        await tools['create_order']!({ ...ORDER, note: nested(depth) });
      } catch (error) {
        return { outcome: 'failed', message: String(error) };
      }
      return { outcome: 'completed' };
    });

  it('the call throws a TypeError into its code, past 1,000 levels and past what JSON.stringify can print alike', async () => {
    for (const depth of [MAX_INPUT_DEPTH, 20_000]) {
      const trial = await run(sends(depth));
      expect(trial.end).toMatchObject({ kind: 'agent_ended', outcome: 'failed' });
      expect(events(trial, 'agent_end')[0]!.message).toBe(
        "TypeError: tools['create_order'](input): the input cannot be sent as JSON (it nests deeper than 1,000 levels)",
      );
      expect(events(trial, 'tool_call')).toEqual([]);
    }
  });

  it('a value a few hundred levels deep is sent, recorded and judged as any other', async () => {
    const trial = await run(sends(MAX_INPUT_DEPTH - 1));
    expect(trial.end).toMatchObject({ kind: 'agent_ended', outcome: 'completed' });
    expect(JSON.stringify(events(trial, 'tool_call')[0]!.input)).toContain('"inner":{"inner":"leaf"}');
  });

  it('never ends the run: the good agent after it passes', async () => {
    const result = await runMatrix({ scenarios: [sends(20_000), good], configs: [rulebookDefault], k: 1, seed: 5 });
    expect(result.cells.map((c) => `${c.scenario} ${c.trials[0]!.status}:${c.trials[0]!.end.kind}`)).toEqual([
      'nests-20000 failed:agent_ended',
      'good-agent passed:agent_ended',
    ]);
  });
});

describe('an agent that hands over an object of its own class holding secrets', () => {
  class OrderInput {
    readonly clientReference = 'ref-1';
    readonly item = 'book';
    readonly quantity = 1;
    readonly amountCents = 1500;
    readonly token = 'hunter2';
    readonly note = 'sent with Bearer abc123xyz by S3CRET';
  }

  it('leaves no secret in the trial: its fields are scrubbed as a plain object’s are', async () => {
    const trial = await run(
      fnScenario(
        'class-input',
        async ({ tools }) => {
          await tools['create_order']!(new OrderInput());
          return { outcome: 'completed' };
        },
        { secrets: ['S3CRET'] },
      ),
    );
    const text = JSON.stringify(trial);
    for (const secret of ['hunter2', 'abc123xyz', 'S3CRET']) expect(text).not.toContain(secret);
    expect(events(trial, 'tool_call')[0]!.input).toMatchObject({ clientReference: 'ref-1', token: '[REDACTED]' });
  });
});

describe('an agent that hands a tool an input JSON cannot send', () => {
  const circular: Record<string, unknown> = { clientReference: 'ref-1' };
  circular['self'] = circular;
  const unsendable: Record<string, unknown> = {
    circular,
    'a BigInt': { ...ORDER, amountCents: 1500n },
    'a getter that throws': Object.defineProperty({ ...ORDER }, 'note', {
      enumerable: true,
      get: () => {
        throw new Error('no note');
      },
    }),
    'a toJSON that throws': {
      ...ORDER,
      note: {
        toJSON: () => {
          throw new Error('no note');
        },
      },
    },
  };

  for (const [what, input] of Object.entries(unsendable)) {
    it(`${what}: the call throws a TypeError into the agent's code, as fetch would, and the trial is the agent's to end`, async () => {
      const caught: string[] = [];
      const trial = await run(
        fnScenario(`unsendable-${what.replace(/\W+/g, '-').toLowerCase()}`, async ({ tools }) => {
          try {
            await tools['create_order']!(input);
          } catch (error) {
            caught.push(String(error));
          }
          await tools['create_order']!(input);
          return { outcome: 'completed' };
        }),
      );
      expect(caught).toHaveLength(1);
      expect(caught[0]).toMatch(/^TypeError: tools\['create_order'\]\(input\): the input cannot be sent as JSON/);
      expect(trial.end.kind).toBe('crashed');
      expect(events(trial, 'tool_call')).toEqual([]);
    });
  }

  it('a Date, a class instance or an undefined field is sent as its JSON, and the history holds that JSON', async () => {
    class Note {
      readonly text = 'gift';
    }
    const trial = await run(
      fnScenario('sends-json', async ({ tools }) => {
        await tools['create_order']!({ ...ORDER, note: new Note(), at: new Date(0), skipped: undefined });
        return { outcome: 'completed' };
      }),
    );
    const input = events(trial, 'tool_call')[0]!.input;
    expect(input).toEqual({ ...ORDER, note: { text: 'gift' }, at: '1970-01-01T00:00:00.000Z' });
    expect(Object.getPrototypeOf((input as { note: object }).note)).toBe(Object.prototype);
  });
});

describe('a run over misbehaving agents', () => {
  const misbehaving = [throwsAtOnce, throwsAfterCall, loopsOnTool, loopsOnWait, neverSettles, maxTurns];

  it('runs every trial: each misbehaving cell fails with its own end, and the good agent after them passes', async () => {
    const seen: string[] = [];
    const result = await runMatrix({
      scenarios: [good, ...misbehaving, good],
      configs: [rulebookDefault],
      k: 2,
      seed: 11,
      onTrial: (t, done, total) => seen.push(`${done}/${total} ${t.scenario}#${t.trialIndex} ${t.status}`),
    });

    expect(result.interrupted).toBe(false);
    expect(seen).toHaveLength(16);
    expect(seen.at(-1)).toBe('16/16 good-agent#1 passed');
    expect(
      result.cells.map((c) => [
        c.scenario,
        c.trials.map((t) => `${t.status}:${t.end.kind}${'limit' in t.end ? `/${t.end.limit}` : ''}`),
      ]),
    ).toEqual([
      ['good-agent', ['passed:agent_ended', 'passed:agent_ended']],
      ['throws-at-once', ['failed:crashed', 'failed:crashed']],
      ['throws-after-call', ['failed:crashed', 'failed:crashed']],
      ['loops-on-tool', ['failed:budget_exceeded/tool_calls', 'failed:budget_exceeded/tool_calls']],
      ['loops-on-wait', ['failed:budget_exceeded/time', 'failed:budget_exceeded/time']],
      ['never-settles', ['failed:hung', 'failed:hung']],
      ['scripted-max-turns', ['failed:budget_exceeded/turns', 'failed:budget_exceeded/turns']],
      ['good-agent', ['passed:agent_ended', 'passed:agent_ended']],
    ]);
  });

  it('a misbehaving trial leaves nothing behind: the next good trial is the same as one run alone', async () => {
    const after = await runMatrix({ scenarios: [...misbehaving, good], configs: [rulebookDefault], k: 1, seed: 5 });
    const alone = await runMatrix({ scenarios: [good], configs: [rulebookDefault], k: 1, seed: 5 });
    const goodAfter = after.cells.at(-1)!.trials[0]!;
    const goodAlone = alone.cells[0]!.trials[0]!;
    expect(goodAfter.status).toBe('passed');
    expect(goodAfter.history).toEqual(goodAlone.history);
    // The checkers judged the final snapshot: the same verdicts and figures mean the same end state.
    expect(goodAfter.checks).toEqual(goodAlone.checks);
    expect(goodAfter.stats).toEqual(goodAlone.stats);
  });
});
