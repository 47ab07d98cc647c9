import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from '../core/rng.js';
import { arrivalOffsets } from './arrival.js';
import type { AgentFn } from '../agent/agentFunction.js';
import { BEHAVIOURS } from '../model/behaviours.js';
import { BUILTIN_CHECKERS } from '../checks/index.js';
import { FaultlineError } from '../core/index.js';
import { FAULT_KINDS } from '../faults/fault.js';
import { modelRoot, sdkBaseUrl } from '../model/api/modelOperations.js';
import { NAMED_SERVICES } from '../world/createWorld.js';
import { defineScenario, type ScenarioInput } from './scenario.js';

/** A whole `create_order` input: a step's input is checked against the tool's schema at load. */
const ORDER = { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1200 };
const AGENT = {
  kind: 'scripted',
  task: 'Create order ref-1',
  plan: { steps: [{ tool: 'create_order', input: ORDER }] },
} satisfies ScenarioInput['agent'];
const BASE = { name: 'order-ok', agent: AGENT };

/** Runs `defineScenario` on data that must be refused; returns the error after checking its code. */
function refusal(input: unknown, source?: string): FaultlineError {
  try {
    defineScenario(input as ScenarioInput, source);
  } catch (error) {
    expect(error).toBeInstanceOf(FaultlineError);
    const e = error as FaultlineError;
    expect(e.code).toBe('FAULTLINE_SCENARIO_INVALID');
    return e;
  }
  throw new Error(`defineScenario accepted ${JSON.stringify(input)}`);
}

/** The `path: expected` lines of the message, without the heading. */
const linesOf = (input: unknown): string[] =>
  refusal(input)
    .message.split('\n')
    .slice(1)
    .map((l) => l.replace(/^ {2}- /, ''));

const oneOf = (values: readonly (string | number)[], quote = '"'): string =>
  values.map((v) => (typeof v === 'string' ? `${quote}${v}${quote}` : String(v))).join('|');

describe('defineScenario fills defaults', () => {
  it('a minimal scripted scenario gets every default', () => {
    expect(defineScenario(BASE)).toEqual({
      name: 'order-ok',
      description: '',
      rules: [],
      startTime: '2026-01-05T09:00:00.000Z',
      world: {},
      faults: [],
      agent: { ...AGENT, behaviour: 'careful', plan: { ...AGENT.plan, naiveRepeats: 3 } },
      agents: 1,
      arrival: { kind: 'burst' },
      budget: { maxTurns: 20, maxToolCalls: 20, maxAttemptsPerCall: 3, deadlineMs: 300_000 },
      goal: {},
      secrets: [],
      format: 'openai',
    });
  });

  it('a partial budget keeps what was given and fills the rest; a fault rule gets an empty match', () => {
    const s = defineScenario({ ...BASE, budget: { maxTurns: 4 }, faults: [{ fault: { kind: 'timeout' } }] });
    expect(s.budget).toEqual({ maxTurns: 4, maxToolCalls: 20, maxAttemptsPerCall: 3, deadlineMs: 300_000 });
    expect(s.faults).toEqual([{ match: {}, fault: { kind: 'timeout' } }]);
  });

  it('optional parts stay absent rather than undefined', () => {
    const s = defineScenario(BASE);
    for (const key of ['title', 'services', 'checks']) expect(Object.hasOwn(s, key), key).toBe(false);
  });

  it('a function agent keeps its function and gets no behaviour', () => {
    const fn: AgentFn = () => Promise.resolve({ outcome: 'completed' });
    const s = defineScenario({ name: 'own-agent', agent: { kind: 'function', task: 'do it', fn } });
    expect(s.agent).toEqual({ kind: 'function', task: 'do it', fn });
    expect(s.agent.kind === 'function' && s.agent.fn).toBe(fn);
  });

  it('given values win over defaults, and the input is not mutated', () => {
    const input: ScenarioInput = {
      ...BASE,
      description: 'lost answers',
      rules: ['R18', 'R22'],
      startTime: '2026-03-01T00:00:00+02:00',
      format: 'mcp',
      secrets: ['sk-live-123'],
      checks: ['duplicates'],
      services: ['orders'],
      agent: { ...AGENT, behaviour: 'unknown-as-success' },
    };
    const copy = structuredClone(input);
    const s = defineScenario(input);
    expect(input).toEqual(copy);
    expect(s).toMatchObject({ ...copy, agent: { ...AGENT, behaviour: 'unknown-as-success' } });
    expect(s.agent.kind === 'scripted' && s.agent.plan.naiveRepeats).toBe(3);
  });

  it('a defined scenario validates again unchanged', () => {
    const s = defineScenario({
      ...BASE,
      faults: [
        { match: { tool: 'create_order', attempt: [1, 2] }, fault: { kind: 'rate_limit', retryAfter: 2 }, times: 1 },
      ],
    });
    expect(defineScenario(s)).toEqual(s);
  });
});

describe('defineScenario refuses bad data, naming each path and what was expected', () => {
  it.each<[string, unknown, string]>([
    [
      'a name that is not a slug',
      { ...BASE, name: 'Order OK' },
      'name: expected a lowercase slug such as "order-partial-write"',
    ],
    [
      'an unknown fault kind',
      { ...BASE, faults: [{ fault: { kind: 'explode' } }] },
      `faults[0].fault.kind: Invalid discriminator value. Expected ${FAULT_KINDS.map((k) => `'${k}'`).join(' | ')}`,
    ],
    [
      'a status outside the literals',
      { ...BASE, faults: [{ fault: { kind: 'unavailable', status: 501 } }] },
      `faults[0].fault.status: Invalid option: expected one of ${oneOf([500, 502, 503, 504, 529])}`,
    ],
    [
      'a negative latency',
      { ...BASE, faults: [{ fault: { kind: 'latency', ms: -5 } }] },
      'faults[0].fault.ms: Too small: expected number to be >=0',
    ],
    [
      'a fractional latency',
      { ...BASE, faults: [{ fault: { kind: 'latency', ms: 2.5 } }] },
      'faults[0].fault.ms: Invalid input: expected int, received number',
    ],
    ['an unknown top-level field', { ...BASE, colour: 'red' }, '(root): Unrecognized key: "colour"'],
    ['an unknown budget field', { ...BASE, budget: { maxTurn: 3 } }, 'budget: Unrecognized key: "maxTurn"'],
    [
      'an unknown service option',
      { ...BASE, world: { orders: { idempotent: true } } },
      'world.orders: Unrecognized key: "idempotent"',
    ],
    [
      'an unknown world service',
      { ...BASE, world: { bank: {} } },
      'world.bank: options for a service that is not in this world (services: orders, payments, email, calendar, deploy)',
    ],
    [
      'a budget number given as a string',
      { ...BASE, budget: { maxTurns: '3' } },
      'budget.maxTurns: Invalid input: expected number, received string',
    ],
    [
      'a fractional budget',
      { ...BASE, budget: { maxToolCalls: 2.5 } },
      'budget.maxToolCalls: Invalid input: expected int, received number',
    ],
    [
      'a zero deadline',
      { ...BASE, budget: { deadlineMs: 0 } },
      'budget.deadlineMs: Too small: expected number to be >0',
    ],
    [
      'an unknown checker name',
      { ...BASE, checks: ['goal-state', 'vibes'] },
      `checks[1]: Invalid option: expected one of ${oneOf(BUILTIN_CHECKERS.map((c) => c.name))}`,
    ],
    [
      'an unknown service',
      { ...BASE, services: ['orders', 'bank'] },
      `services[1]: "bank" is not a built-in service (${NAMED_SERVICES.join(', ')})`,
    ],
    [
      'a service module path outside a scenario file',
      { ...BASE, services: ['./helpdesk.service.ts'] },
      `services[0]: "./helpdesk.service.ts" is not a built-in service (${NAMED_SERVICES.join(', ')}); ` +
        `a module path is resolved only in scenario files: import the service and pass it`,
    ],
    [
      'options a built-in service refuses',
      { ...BASE, world: { payments: { maxAmountCents: -1 } } },
      'world.payments.maxAmountCents: Too small: expected number to be >0',
    ],
    [
      'a placeholder naming no step',
      {
        ...BASE,
        agent: { ...AGENT, plan: { steps: [{ tool: 'charge_payment', input: { orderId: '$order.orderId' } }] } },
      },
      'agent.plan.steps[0].input: "$order" names no earlier step',
    ],
    [
      'a placeholder naming a later step',
      {
        ...BASE,
        agent: {
          ...AGENT,
          plan: {
            steps: [
              { tool: 'charge_payment', input: { orderId: '$order.orderId' } },
              { name: 'order', tool: 'create_order', input: {} },
            ],
          },
        },
      },
      'agent.plan.steps[0].input: "$order" names no earlier step',
    ],
    [
      'a placeholder in fixes',
      { ...BASE, agent: { ...AGENT, plan: { steps: [{ tool: 'x', input: {}, fixes: { a: '$nope' } }] } } },
      'agent.plan.steps[0].fixes: "$nope" names no earlier step',
    ],
    [
      'a placeholder in a poll naming no step',
      {
        ...BASE,
        agent: {
          ...AGENT,
          plan: {
            steps: [
              {
                tool: 'deploy',
                input: {},
                poll: {
                  tool: 'job',
                  input: { id: '$job.id' },
                  until: { path: 'state', in: ['done'] },
                  everyMs: 1,
                  maxPolls: 1,
                },
              },
            ],
          },
        },
      },
      'agent.plan.steps[0].poll.input: "$job" names no earlier step',
    ],
    [
      'a step name used twice',
      {
        ...BASE,
        agent: {
          ...AGENT,
          plan: {
            steps: [
              { name: 'a', tool: 'x', input: {} },
              { name: 'a', tool: 'x', input: {} },
            ],
          },
        },
      },
      'agent.plan.steps[1].name: step name "a" is used twice',
    ],
    [
      'a plan without steps',
      { ...BASE, agent: { ...AGENT, plan: { steps: [] } } },
      'agent.plan.steps: Too small: expected array to have >=1 items',
    ],
    [
      'a subject without a service',
      { ...BASE, agent: { ...AGENT, plan: { steps: [{ tool: 'x', input: {}, subject: 'ref-1' }] } } },
      'agent.plan.steps[0].subject: a subject is service:businessKey',
    ],
    ['a startTime in words', { ...BASE, startTime: 'yesterday' }, 'startTime: Invalid ISO datetime'],
    [
      'a startTime without an offset (local time would not replay)',
      { ...BASE, startTime: '2026-01-05T09:00:00' },
      'startTime: Invalid ISO datetime',
    ],
    [
      'a startTime on a day that does not exist',
      { ...BASE, startTime: '2026-02-30T09:00:00Z' },
      'startTime: Invalid ISO datetime',
    ],
    ['a bad rule id', { ...BASE, rules: ['R1', 'rule-7'] }, 'rules[1]: expected a rule id such as "R7"'],
    [
      'an unknown behaviour',
      { ...BASE, agent: { ...AGENT, behaviour: 'sloppy' } },
      `agent.behaviour: Invalid option: expected one of ${oneOf(BEHAVIOURS)}`,
    ],
    [
      'a mixture naming an unknown behaviour',
      { ...BASE, agent: { ...AGENT, behaviour: { careful: 0.9, sloppy: 0.1 } } },
      `agent.behaviour.sloppy: "sloppy" is not a behaviour; expected one of ${BEHAVIOURS.join(', ')}`,
    ],
    [
      'a mixture with a negative weight',
      { ...BASE, agent: { ...AGENT, behaviour: { careful: 1, 'ignores-retry-after': -0.1 } } },
      'agent.behaviour.ignores-retry-after: expected a weight, a finite number ≥ 0; got -0.1',
    ],
    [
      'a mixture with a weight in words',
      { ...BASE, agent: { ...AGENT, behaviour: { careful: 'most' } } },
      'agent.behaviour.careful: expected a weight, a finite number ≥ 0; got "most"',
    ],
    [
      'a mixture whose weights sum to 0',
      { ...BASE, agent: { ...AGENT, behaviour: { careful: 0 } } },
      `agent.behaviour: the weights sum to 0; expected at least one behaviour with a weight above 0 (${BEHAVIOURS.join(', ')})`,
    ],
    [
      'an unknown agent kind',
      { ...BASE, agent: { kind: 'llm', task: 't' } },
      "agent.kind: Invalid discriminator value. Expected 'scripted' | 'function' | 'http' | 'command'",
    ],
    [
      'a function agent whose fn is not a function',
      { ...BASE, agent: { kind: 'function', task: 't', fn: 42 } },
      'agent.fn: expected a function (ctx) => Promise<{ outcome }>',
    ],
    ['a scripted agent given an fn', { ...BASE, agent: { ...AGENT, fn: () => 1 } }, 'agent: Unrecognized key: "fn"'],
    [
      'an empty task',
      { ...BASE, agent: { ...AGENT, task: '' } },
      'agent.task: Too small: expected string to have >=1 characters',
    ],
    ['a missing agent', { name: 'no-agent' }, 'agent: Invalid input: expected object, received undefined'],
    [
      'an empty fault window',
      { ...BASE, faults: [{ match: { from: 100, to: 50 }, fault: { kind: 'timeout' } }] },
      'faults[0].match.to: `to` must be later than `from` (the window is [from, to))',
    ],
    [
      'a probability above 1',
      { ...BASE, faults: [{ match: { probability: 2 }, fault: { kind: 'timeout' } }] },
      'faults[0].match.probability: Too big: expected number to be <=1',
    ],
    [
      'an unknown match field',
      { ...BASE, faults: [{ match: { tol: 'create_order' }, fault: { kind: 'timeout' } }] },
      'faults[0].match: Unrecognized key: "tol"',
    ],
    [
      'a rule that applies zero times',
      { ...BASE, faults: [{ fault: { kind: 'timeout' }, times: 0 }] },
      'faults[0].times: Too small: expected number to be >0',
    ],
    [
      'a duplicate with one copy',
      { ...BASE, faults: [{ fault: { kind: 'duplicate', copies: 1 } }] },
      'faults[0].fault.copies: Too small: expected number to be >=2',
    ],
    [
      'a negative Retry-After',
      { ...BASE, faults: [{ fault: { kind: 'rate_limit', retryAfter: -1 } }] },
      'faults[0].fault.retryAfter: Too small: expected number to be >=0',
    ],
    [
      'an unknown Retry-After form',
      { ...BASE, faults: [{ fault: { kind: 'rate_limit', retryAfterAs: 'days' } }] },
      'faults[0].fault.retryAfterAs: Invalid option: expected one of "seconds"|"http-date"',
    ],
    [
      'an unknown goal outcome',
      { ...BASE, goal: { outcome: ['done'] } },
      'goal.outcome[0]: Invalid option: expected one of "completed"|"failed"|"handoff"|"unknown"',
    ],
    [
      'an unknown result format',
      { ...BASE, format: 'xml' },
      'format: Invalid option: expected one of "openai"|"claude"|"mcp"',
    ],
    ['an empty secret', { ...BASE, secrets: [''] }, 'secrets[0]: Too small: expected string to have >=1 characters'],
  ])('%s', (_, input, line) => {
    expect(linesOf(input)).toEqual([line]);
  });

  it('input that is not an object at all', () => {
    expect(refusal(42).message).toBe('invalid scenario:\n  - (root): Invalid input: expected object, received number');
  });

  it('every bad path at once, one line each, headed by the source file and the name', () => {
    const e = refusal(
      {
        name: 'Bad Name',
        startTime: 'soon',
        services: ['bank'],
        faults: [{ fault: { kind: 'latency', ms: -1 } }, { fault: { kind: 'unavailable', status: 418 } }],
        budget: { maxTurns: 0 },
        checks: ['vibes'],
        agent: {
          ...AGENT,
          plan: {
            steps: [
              { tool: 'x', input: {}, extra: 1 },
              { tool: 'y', input: { a: '$nope' } },
            ],
          },
        },
      },
      'scenarios/bad.yaml',
    );
    const issues = [
      'name: expected a lowercase slug such as "order-partial-write"',
      'startTime: Invalid ISO datetime',
      `services[0]: "bank" is not a built-in service (${NAMED_SERVICES.join(', ')})`,
      'faults[0].fault.ms: Too small: expected number to be >=0',
      `faults[1].fault.status: Invalid option: expected one of ${oneOf([500, 502, 503, 504, 529])}`,
      'agent.plan.steps[0]: Unrecognized key: "extra"',
      'agent.plan.steps[1].input: "$nope" names no earlier step',
      'budget.maxTurns: Too small: expected number to be >0',
      `checks[0]: Invalid option: expected one of ${oneOf(BUILTIN_CHECKERS.map((c) => c.name))}`,
    ];
    expect(e.message).toBe(
      `scenarios/bad.yaml: invalid scenario "Bad Name":\n${issues.map((l) => `  - ${l}`).join('\n')}`,
    );
    expect(e.details).toEqual({ source: 'scenarios/bad.yaml', issues });
  });

  it('a refinement still runs beside an unknown key in the same object', () => {
    expect(linesOf({ ...BASE, faults: [{ match: { from: 10, to: 5, tol: 1 }, fault: { kind: 'timeout' } }] })).toEqual([
      'faults[0].match: Unrecognized key: "tol"',
      'faults[0].match.to: `to` must be later than `from` (the window is [from, to))',
    ]);
  });
});

describe('known bugs in scenario validation (these fail until src/ is fixed)', () => {
  // FaultSchema's objects are not strict, so a misspelt optional field is silently dropped:
  // this 429 goes out with no Retry-After at all, and nothing says why.
  it('an unknown field inside a fault is refused, like everywhere else in a scenario', () => {
    expect(linesOf({ ...BASE, faults: [{ fault: { kind: 'rate_limit', retryAfer: 5 } }] })).toEqual([
      'faults[0].fault: Unrecognized key: "retryAfer"',
    ]);
  });

  // Effect names hold dots, so `goal.effects.order.created` reads as four levels deep.
  // goal-state's own paths quote such keys (`orders["ref-1"].status`); so should this.
  it('a path through a key with a dot in it quotes the key', () => {
    expect(linesOf({ ...BASE, goal: { effects: { 'order.created': -1 } } })).toEqual([
      'goal.effects["order.created"]: Too small: expected number to be >=0',
    ]);
  });
});

describe('defineScenario checks tool names against the scenario services', () => {
  it('names each unknown tool in plan steps, polls, fault rules and client settings', () => {
    const lines = linesOf({
      ...BASE,
      services: ['orders', 'payments'],
      agent: {
        kind: 'scripted',
        task: 't',
        plan: {
          steps: [
            { tool: 'create_order', input: ORDER },
            {
              tool: 'chrage_payment',
              input: {},
              poll: {
                tool: 'get_deploy_status',
                input: {},
                until: { path: 'state', in: ['done'] },
                everyMs: 1,
                maxPolls: 1,
              },
            },
          ],
        },
      },
      faults: [{ match: { tool: ['create_order', 'send_emial'] }, fault: { kind: 'timeout' } }],
      client: { sdkRetries: 2, tools: ['charge_payments'] },
    });
    const known =
      '(known: create_order, get_order, find_order_by_reference, cancel_order, charge_payment, ' +
      'refund_payment, get_payment, query_operation_status)';
    expect(lines).toEqual([
      `agent.plan.steps[1].tool: "chrage_payment": no such tool in this scenario's services ${known}`,
      `agent.plan.steps[1].poll.tool: "get_deploy_status": no such tool in this scenario's services ${known}`,
      `faults[0].match.tool[1]: "send_emial": no such tool in this scenario's services ${known}`,
      `client.tools[0]: "charge_payments": no such tool in this scenario's services ${known}`,
    ]);
  });

  it("takes the routes of the scenario's model as tools of a fault rule, and names a route of a model it does not serve", () => {
    const agent = { kind: 'http' as const, task: 't', run: async () => ({ outcome: 'completed' as const }) };
    const plan = { steps: [{ tool: 'create_order', input: {} }] };
    const rule = (tool: string | string[]) => ({ match: { tool }, fault: { kind: 'quota_exceeded' as const } });
    const accepted = (input: ScenarioInput) => defineScenario(input).faults.map((f) => f.match.tool);
    expect(
      accepted({
        ...BASE,
        services: ['orders'],
        agent,
        model: { api: 'openai', plan },
        faults: [rule(['model:openai.chat.completions', 'model:openai.responses', 'create_order'])],
      }),
    ).toEqual([['model:openai.chat.completions', 'model:openai.responses', 'create_order']]);
    expect(
      accepted({
        ...BASE,
        services: ['orders'],
        agent,
        model: { api: 'anthropic', plan },
        faults: [rule('model:anthropic.messages')],
      }),
    ).toEqual(['model:anthropic.messages']);
    expect(
      linesOf({
        ...BASE,
        services: ['orders'],
        agent,
        model: { api: 'anthropic', plan },
        faults: [rule('model:openai.chat.completions')],
      }),
    ).toEqual([
      'faults[0].match.tool: "model:openai.chat.completions": a route of the openai model API, which ' +
        'this scenario does not serve: its model speaks anthropic (model:anthropic.messages)',
    ]);
    expect(linesOf({ ...BASE, services: ['orders'], agent, faults: [rule('model:openai.responses')] })).toEqual([
      'faults[0].match.tool: "model:openai.responses": a route of the openai model API, which this ' +
        'scenario does not serve: it names no model (model: { api: openai, plan: … })',
    ]);
  });

  it('takes a model.baseUrl with /v1, as compatible servers document theirs, for the same root', () => {
    const agent = { kind: 'http' as const, task: 't', run: async () => ({ outcome: 'completed' as const }) };
    const plan = { steps: [{ tool: 'create_order', input: {} }] };
    for (const baseUrl of ['http://127.0.0.1:11434/v1', 'http://127.0.0.1:11434/v1/', 'http://127.0.0.1:11434']) {
      const s = defineScenario({ ...BASE, services: ['orders'], agent, model: { api: 'openai', baseUrl, plan } });
      expect(modelRoot('openai', s.model?.baseUrl)).toBe('http://127.0.0.1:11434');
      expect(sdkBaseUrl('openai', modelRoot('openai', s.model?.baseUrl))).toBe('http://127.0.0.1:11434/v1');
      expect(sdkBaseUrl('anthropic', modelRoot('anthropic', s.model?.baseUrl))).toBe('http://127.0.0.1:11434');
    }
    expect(modelRoot('openai', 'http://gateway.test/api/v1')).toBe('http://gateway.test/api');
    expect(modelRoot('anthropic', undefined)).toBe('https://api.anthropic.com');
    expect(
      linesOf({
        ...BASE,
        services: ['orders'],
        agent,
        model: { api: 'openai', baseUrl: 'ftp://gateway.test/v1', plan },
      }),
    ).toEqual([expect.stringMatching(/^model\.baseUrl: /)]);
  });

  it("accepts the execution layer's own status tool in a plan", () => {
    expect(() =>
      defineScenario({
        ...BASE,
        agent: {
          kind: 'scripted',
          task: 't',
          plan: { steps: [{ tool: 'query_operation_status', input: { operation_id: 'op-1' } }] },
        },
      }),
    ).not.toThrow();
  });
});

describe('agents and arrival: many agents are a field of every scenario', () => {
  it('accepts a crowd with each arrival pattern, and refuses a bad one naming the path', () => {
    expect(defineScenario({ ...BASE, agents: 50, arrival: { kind: 'poisson', perSecond: 20 } })).toMatchObject({
      agents: 50,
      arrival: { kind: 'poisson', perSecond: 20 },
    });
    expect(defineScenario({ ...BASE, agents: 3, arrival: { kind: 'uniform', overMs: 1_000 } }).arrival).toEqual({
      kind: 'uniform',
      overMs: 1_000,
    });
    expect(() => defineScenario({ ...BASE, agents: 0 })).toThrow(/agents: Too small/);
    expect(() => defineScenario({ ...BASE, agents: 2, arrival: { kind: 'storm' } as never })).toThrow(/arrival\.kind/);
  });

  it('a uniform window past 2^53 - 1 ms is refused at load (the draw of a start in it never ended); one within is drawn at once', () => {
    fc.assert(
      fc.property(fc.double({ min: Number.MAX_SAFE_INTEGER + 2, max: 1e308, noNaN: true }), (overMs) => {
        expect(() => defineScenario({ ...BASE, agents: 2, arrival: { kind: 'uniform', overMs } })).toThrow(
          /arrival\.overMs: expected at most 9007199254740991 ms/,
        );
      }),
      { numRuns: 20, seed: 43 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (overMs) => {
        const arrival = defineScenario({ ...BASE, agents: 3, arrival: { kind: 'uniform', overMs } }).arrival;
        for (const at of arrivalOffsets(arrival, 3, new Rng(7)))
          expect(at >= 0 && at <= overMs && Number.isSafeInteger(at)).toBe(true);
      }),
      { numRuns: 20, seed: 43 },
    );
  });

  it('refuses http: (how an http agent is intercepted) on an agent it never reaches', () => {
    const fn: AgentFn = async () => ({ outcome: 'completed' });
    fc.assert(
      fc.property(
        fc.constantFrom(
          { agent: AGENT, kind: 'scripted' },
          { agent: { kind: 'function' as const, task: 't', fn }, kind: 'function' },
        ),
        fc.constantFrom('msw' as const, 'nock' as const),
        ({ agent, kind }, adapter) => {
          expect(() => defineScenario({ ...BASE, agent, http: { adapter } })).toThrow(
            new RegExp(
              `http: sets how an "http" or "command" agent's HTTP calls are met \\(adapter, unhandled ` +
                `requests\\); agent\\.kind is "${kind}"`,
            ),
          );
        },
      ),
      { numRuns: 4, seed: 43 },
    );
  });

  it('refuses many copies of an http agent, which runs alone', () => {
    const http = {
      ...BASE,
      agent: { kind: 'http' as const, task: 't', run: async () => ({ outcome: 'completed' as const }) },
      agents: 2,
    };
    expect(() => defineScenario(http)).toThrow(/agents: an "http" agent runs alone .* agents must be 1, got 2/);
  });
});

describe('heal and recovery', () => {
  const OUTAGE = {
    ...BASE,
    faults: [{ match: { tool: 'create_order' }, fault: { kind: 'unavailable' as const, status: 503 as const } }],
  };

  it('accepts a heal with a recovery expectation, and leaves both out when absent', () => {
    const s = defineScenario({ ...OUTAGE, heal: { atMs: 5_000 }, recovery: { withinMs: 2_000, maxCallsAfter: 1 } });
    expect(s.heal).toEqual({ atMs: 5_000 });
    expect(s.recovery).toEqual({ withinMs: 2_000, maxCallsAfter: 1 });
    expect('heal' in defineScenario(OUTAGE)).toBe(false);
    expect(defineScenario({ ...OUTAGE, heal: { atMs: 0 } }).heal).toEqual({ atMs: 0 });
  });

  it('accepts checks: [recovery] beside crash.agent with no heal: a restart that never finishes fails it', () => {
    const crashed = {
      ...BASE,
      agent: { kind: 'command' as const, argv: ['node', 'agent.mjs'] },
      crash: { agent: { afterEffectOf: 'create_order' } },
      checks: ['recovery'],
    };
    expect(defineScenario(crashed).checks).toEqual(['recovery']);
  });

  it.each<[string, unknown, string]>([
    ['a negative heal', { ...OUTAGE, heal: { atMs: -1 } }, 'heal.atMs: Too small: expected number to be >=0'],
    [
      'a heal given as text',
      { ...OUTAGE, heal: { atMs: '5s' } },
      'heal.atMs: Invalid input: expected number, received string',
    ],
    [
      'a heal with no instant',
      { ...OUTAGE, heal: {} },
      'heal.atMs: Invalid input: expected number, received undefined',
    ],
    ['an unknown heal field', { ...OUTAGE, heal: { atMs: 1, after: 2 } }, 'heal: Unrecognized key: "after"'],
    [
      'a recovery window given as text',
      { ...OUTAGE, heal: { atMs: 1 }, recovery: { withinMs: 'soon' } },
      'recovery.withinMs: Invalid input: expected number, received string',
    ],
    [
      'a fractional call count',
      { ...OUTAGE, heal: { atMs: 1 }, recovery: { withinMs: 1, maxCallsAfter: 1.5 } },
      'recovery.maxCallsAfter: Invalid input: expected int, received number',
    ],
    [
      'a negative stale wait',
      { ...OUTAGE, heal: { atMs: 1 }, recovery: { withinMs: 1, maxStaleWaitMs: -1 } },
      'recovery.maxStaleWaitMs: Too small: expected number to be >=0',
    ],
    [
      'a recovery without a heal',
      { ...OUTAGE, recovery: { withinMs: 1_000 } },
      'recovery: judged from the moment the faults heal, and this scenario has no heal; expected heal: { atMs } beside it',
    ],
    [
      'the recovery checker without a recovery',
      { ...OUTAGE, heal: { atMs: 1 }, checks: ['recovery'] },
      'checks: "recovery" judges a recovery expectation, and this scenario has none; ' +
        'expected recovery: { withinMs } (with heal: { atMs }) or crash.agent',
    ],
    [
      'a rule that opens after the heal',
      { ...OUTAGE, faults: [{ match: { from: 6_000 }, fault: { kind: 'timeout' } }], heal: { atMs: 5_000 } },
      'faults[0].match.from: 6000 is not before heal.atMs (5000): the rule could never fire; expected a window that opens before the heal',
    ],
  ])('refuses %s, naming the path', (_what, input, line) => {
    expect(linesOf(input)).toContain(line);
  });
});
