import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineHttpAgent } from '../src/agent/httpAgent.js';
import { finalFromText } from '../src/model/api/conversation.js';
import { BUILTIN_CHECKERS } from '../src/checks/index.js';
import { eventsOf, type ErrorKind, type EventOf } from '../src/core/index.js';
import {
  FAULT_KINDS,
  LIE_FAULT_KINDS,
  MODEL_FAULT_KINDS,
  STREAM_FAULT_KINDS,
  type Fault,
  type FaultKind,
  type FaultOf,
  type ModelFaultKind,
  type StreamFaultKind,
} from '../src/faults/fault.js';
import type { FaultRule } from '../src/faults/plan.js';
import { LIE_KINDS as STATS_LIE_KINDS } from '../src/stats/trialStats.js';
import { formatTimeline } from '../src/report/timeline.js';
import { defineScenario, type Scenario } from '../src/scenario/scenario.js';
import { runTrial, type TrialResult } from '../src/runner/trial.js';
import { RetryConfigSchema, rulebookDefault, type RetryConfig, type RetryConfigInput } from '../src/runtime/config.js';
import { BUILTIN_SERVICES } from '../src/world/createWorld.js';

type BuiltinServiceName = (typeof BUILTIN_SERVICES)[number];
import type { ServiceOptions } from '../src/world/services/ServiceOptions.js';

/**
 * Laws over every fault kind and every built-in service: determinism, "no fault, no
 * failure", and each fault doing what its name says, read off the history and the ledger.
 */

const START = '2026-01-05T09:00:00.000Z';

interface Write {
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly subject: string;
  readonly effect: string;
}

/** One representative write per built-in service. */
const WRITES: { readonly [S in BuiltinServiceName]: Write } = {
  orders: {
    tool: 'create_order',
    input: { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 },
    subject: 'orders:ref-1',
    effect: 'order.created',
  },
  payments: {
    tool: 'charge_payment',
    input: { paymentReference: 'pay-ref-1', amountCents: 1500, currency: 'EUR' },
    subject: 'payments:pay-ref-1',
    effect: 'payment.charged',
  },
  email: {
    tool: 'send_email',
    input: { messageId: 'welcome-1', to: 'ada@example.com', subject: 'Welcome', body: 'Hello Ada' },
    subject: 'email:welcome-1',
    effect: 'email.sent',
  },
  calendar: {
    tool: 'create_calendar_event',
    // A day after START, so a retry minutes later is still "not in the past".
    input: {
      clientReference: 'evt-1',
      title: 'Review',
      start: '2026-01-06T10:00:00.000Z',
      end: '2026-01-06T11:00:00.000Z',
    },
    subject: 'calendar:evt-1',
    effect: 'calendar.event_created',
  },
  deploy: {
    tool: 'start_deploy',
    input: { clientReference: 'dep-1', service: 'api', version: '1.2.3' },
    subject: 'deploy:dep-1',
    effect: 'deploy.started',
  },
};

/** One fault of every kind; the mapped type makes a new kind a compile error here. */
const SAMPLE: { readonly [K in FaultKind]: FaultOf<K> } = {
  timeout: { kind: 'timeout' },
  latency: { kind: 'latency', ms: 1_500 },
  network: { kind: 'network', code: 'ECONNRESET' },
  rate_limit: { kind: 'rate_limit', retryAfter: 7, retryAfterAs: 'http-date' },
  quota_exceeded: { kind: 'quota_exceeded' },
  unavailable: { kind: 'unavailable', status: 503 },
  partial_write: { kind: 'partial_write', lostAs: 'timeout' },
  duplicate: { kind: 'duplicate', copies: 3 },
  permission_denied: { kind: 'permission_denied', status: 403 },
  rejected: { kind: 'rejected', message: 'amount exceeds the account limit' },
  not_found: { kind: 'not_found' },
  conflict: { kind: 'conflict' },
  server_error: { kind: 'server_error' },
  malformed: { kind: 'malformed' },
  stale: { kind: 'stale', lagMs: 60_000 },
  empty: { kind: 'empty' },
  truncated: { kind: 'truncated', keep: 0 },
  wrong_value: { kind: 'wrong_value', path: 'state' },
  stream_cut: { kind: 'stream_cut', afterEvents: 1 },
  stream_stall: { kind: 'stream_stall', afterEvents: 1 },
  stream_malformed: { kind: 'stream_malformed', afterEvents: 1 },
  malformed_arguments: { kind: 'malformed_arguments' },
  invalid_arguments: { kind: 'invalid_arguments', break: 'wrong_type' },
  wrong_target: { kind: 'wrong_target' },
  unknown_tool: { kind: 'unknown_tool' },
  refusal: { kind: 'refusal' },
  content_filter: { kind: 'content_filter' },
  empty_text: { kind: 'empty_text' },
  garbled: { kind: 'garbled' },
  error_in_200: { kind: 'error_in_200' },
  replayed: { kind: 'replayed' },
  context_length: { kind: 'context_length' },
};

/**
 * The kinds that strike a write; stream faults strike only streamed model answers (test/http/streaming.msw.test.ts),
 * the model's own mistakes only model answers (test/cli/modelMistakes.test.ts), `stale` only reads.
 */
const TOOL_FAULT_KINDS = FAULT_KINDS.filter(
  (k): k is Exclude<FaultKind, StreamFaultKind | ModelFaultKind | 'stale'> =>
    !(STREAM_FAULT_KINDS as readonly string[]).includes(k) &&
    !(MODEL_FAULT_KINDS as readonly string[]).includes(k) &&
    k !== 'stale',
);

/** What the first attempt of a write meets under `SAMPLE[kind]`, and whether the careful agent still gets its effect. */
interface FirstAttempt {
  /** Arrivals of the first request at the service. */
  readonly deliveries: number;
  /** Ledger effects the first request committed. */
  readonly committed: number;
  /** The wire's `response` to the first request. */
  readonly reply: 'ok' | 'error' | 'lost';
  /** How the runtime classified the first attempt's failure. */
  readonly error?: ErrorKind;
  readonly recovers: boolean;
}

const FIRST: { readonly [K in Exclude<FaultKind, StreamFaultKind | ModelFaultKind | 'stale'>]: FirstAttempt } = {
  timeout: { deliveries: 0, committed: 0, reply: 'lost', error: 'timeout', recovers: true },
  latency: { deliveries: 1, committed: 1, reply: 'ok', recovers: true },
  network: { deliveries: 0, committed: 0, reply: 'error', error: 'network', recovers: true },
  rate_limit: { deliveries: 0, committed: 0, reply: 'error', error: 'rate_limit', recovers: true },
  quota_exceeded: { deliveries: 0, committed: 0, reply: 'error', error: 'quota_exceeded', recovers: false },
  unavailable: { deliveries: 0, committed: 0, reply: 'error', error: 'unavailable', recovers: true },
  partial_write: { deliveries: 1, committed: 1, reply: 'lost', error: 'timeout', recovers: true },
  // Idempotency is on by default: three arrivals, one effect.
  duplicate: { deliveries: 3, committed: 1, reply: 'ok', recovers: true },
  permission_denied: { deliveries: 0, committed: 0, reply: 'error', error: 'permission_denied', recovers: false },
  rejected: { deliveries: 0, committed: 0, reply: 'error', error: 'invalid_argument', recovers: false },
  not_found: { deliveries: 0, committed: 0, reply: 'error', error: 'not_found', recovers: false },
  conflict: { deliveries: 0, committed: 0, reply: 'error', error: 'conflict', recovers: false },
  server_error: { deliveries: 1, committed: 0, reply: 'error', error: 'internal', recovers: false },
  malformed: { deliveries: 1, committed: 1, reply: 'error', error: 'unknown', recovers: true },
  // Lies about a write's own answer: committed, answered 200, and the agent goes on with what it was told.
  empty: { deliveries: 1, committed: 1, reply: 'ok', recovers: true },
  truncated: { deliveries: 1, committed: 1, reply: 'ok', recovers: true },
  wrong_value: { deliveries: 1, committed: 1, reply: 'ok', recovers: true },
};

interface ScenarioOptions {
  readonly faults?: readonly FaultRule[];
  readonly service?: ServiceOptions;
  readonly startTime?: string;
  readonly name?: string;
}

/** A one-step task: the service's representative write, the only service in the world. */
function scenarioFor(service: BuiltinServiceName, options: ScenarioOptions = {}): Scenario {
  const w = WRITES[service];
  return defineScenario({
    name: options.name ?? `law-${service}`,
    startTime: options.startTime ?? START,
    services: [service],
    world: { [service]: { ...options.service } },
    faults: [...(options.faults ?? [])],
    agent: {
      kind: 'scripted',
      task: `Do ${w.tool} once`,
      plan: { steps: [{ name: 'write', tool: w.tool, input: { ...w.input }, subject: w.subject }] },
    },
    goal: { effects: { [w.effect]: 1 } },
  });
}

/** The fault on the first attempt of the write itself (status queries also count as attempt 1). */
const onFirstAttempt = (service: BuiltinServiceName, fault: Fault): FaultRule => ({
  match: { tool: WRITES[service].tool, attempt: 1, purpose: 'call' },
  fault,
});

/** A rule that loads: a stale one aimed at the write alone is refused at load unless it says it may not fire. */
const loadable = (rule: FaultRule): FaultRule =>
  rule.fault.kind === 'stale' ? { ...rule, expect: 'may-not-fire' } : rule;

const config = (input: Omit<RetryConfigInput, 'name'>): RetryConfig =>
  RetryConfigSchema.parse({ name: 'law', ...input });

const trial = (scenario: Scenario, runSeed = 1, cfg: RetryConfig = rulebookDefault): Promise<TrialResult> =>
  runTrial({ scenario, config: cfg, runSeed, trialIndex: 0 });

/** The trial's history, printed, as the message of a failing assertion. */
const why = (t: TrialResult): string => `\n${formatTimeline(t.history)}`;

const callAttempts = (t: TrialResult): EventOf<'attempt'>[] =>
  eventsOf(t.history, 'attempt').filter((a) => a.purpose === 'call');

function nthAttempt(t: TrialResult, n: number): EventOf<'attempt'> {
  const a = callAttempts(t).find((e) => e.attempt === n && e.call === 'call-1');
  if (!a) throw new Error(`no attempt ${n} of call-1${why(t)}`);
  return a;
}

/** The end of an attempt: the first `attempt_end` of its call and number after it (a later status query reuses `attempt: 1`). */
function endOf(t: TrialResult, a: EventOf<'attempt'>): EventOf<'attempt_end'> {
  const e = eventsOf(t.history, 'attempt_end').find(
    (x) => x.seq > a.seq && x.call === a.call && x.attempt === a.attempt,
  );
  if (!e) throw new Error(`attempt ${a.request} never ended${why(t)}`);
  return e;
}

const deliveriesOf = (t: TrialResult, request: string): EventOf<'delivery'>[] =>
  eventsOf(t.history, 'delivery').filter((d) => d.request === request);
const responseTo = (t: TrialResult, request: string): EventOf<'response'> | undefined =>
  eventsOf(t.history, 'response').find((r) => r.request === request);
const effectsOf = (t: TrialResult, request: string) => t.snapshot.ledger.filter((e) => e.request === request);
const verdictOf = (t: TrialResult, checker: string) => t.checks.find((c) => c.name === checker)?.verdict;
const claimsOf = (t: TrialResult) => eventsOf(t.history, 'agent_end').at(-1)?.claims ?? [];

/** The kinds a tool's delivery can take: the model's own mistakes need a model (test/cli/modelMistakes.test.ts). */
const WIRE_KINDS = FAULT_KINDS.filter((k) => !(MODEL_FAULT_KINDS as readonly string[]).includes(k));

describe('the samples', () => {
  it('name the lies as the stats do, which count a lie as fired only when it told something', () => {
    expect([...STATS_LIE_KINDS].sort()).toEqual([...LIE_FAULT_KINDS].sort());
  });

  it('cover every fault kind, each valid under the fault schema', () => {
    expect(Object.keys(SAMPLE).sort()).toEqual([...FAULT_KINDS].sort());
    expect(Object.keys(FIRST).sort()).toEqual([...TOOL_FAULT_KINDS].sort());
    // defineScenario validates the plan: a bad sample would throw FAULTLINE_SCENARIO_INVALID.
    for (const kind of WIRE_KINDS)
      expect(() => scenarioFor('orders', { faults: [loadable(onFirstAttempt('orders', SAMPLE[kind]))] })).not.toThrow();
    // The model's own mistakes aimed at a tool could never fire: refused at load, naming the rule's tool.
    for (const kind of MODEL_FAULT_KINDS)
      expect(() => scenarioFor('orders', { faults: [onFirstAttempt('orders', SAMPLE[kind])] })).toThrow(
        /faults\[0\]\.fault\.kind: ".+" is a model's own mistake, and this scenario serves no model/,
      );
  });
});

describe.each(BUILTIN_SERVICES)('law: same seed, same trial (%s)', (service) => {
  it.each(WIRE_KINDS)('%s: byte-identical history, snapshot hash and verdicts', async (kind) => {
    // A probability rule besides the fixed one, so the fault rng is exercised too.
    const scenario = scenarioFor(service, {
      name: `same-seed-${service}`,
      faults: [
        loadable(onFirstAttempt(service, SAMPLE[kind])),
        { match: { tool: WRITES[service].tool, probability: 0.5 }, fault: { kind: 'latency', ms: 250 } },
      ],
    });
    const a = await trial(scenario, 7);
    const b = await trial(scenario, 7);
    expect(JSON.stringify(b.history)).toBe(JSON.stringify(a.history));
    expect(b.snapshot.hash).toBe(a.snapshot.hash);
    expect(b.snapshot.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(b.checks)).toBe(JSON.stringify(a.checks));
    expect(b.status).toBe(a.status);
  });
});

describe('law: a different seed changes what is random', () => {
  const seeds = Array.from({ length: 12 }, (_, i) => i + 1);

  it('full jitter draws a different backoff per seed, within [0, base)', async () => {
    const scenario = scenarioFor('orders', { faults: [onFirstAttempt('orders', { kind: 'timeout' })] });
    const waits: number[] = [];
    for (const seed of seeds) {
      const t = await trial(scenario, seed);
      const wait = eventsOf(t.history, 'retry_wait');
      expect(wait, why(t)).toHaveLength(1);
      expect(wait[0]!.reason).toBe('backoff');
      waits.push(wait[0]!.ms);
    }
    // The rulebook's first retry waits random(0, 200ms).
    for (const ms of waits) expect(ms >= 0 && ms < 200, `wait ${ms}`).toBe(true);
    expect(new Set(waits).size).toBeGreaterThan(1);
    // And the same seed gives the same wait again.
    const again = await trial(scenario, seeds[3]!);
    expect(eventsOf(again.history, 'retry_wait')[0]!.ms).toBe(waits[3]);
  });

  it('a probability rule hits some seeds and spares others, the same ones every time', async () => {
    const scenario = scenarioFor('email', {
      faults: [
        {
          match: { tool: 'send_email', purpose: 'call', attempt: 1, probability: 0.5 },
          fault: { kind: 'unavailable', status: 503 },
        },
      ],
    });
    const hit = async (seed: number): Promise<boolean> =>
      eventsOf((await trial(scenario, seed)).history, 'fault').length > 0;
    const first: boolean[] = [];
    for (const seed of seeds) first.push(await hit(seed));
    expect(first.filter(Boolean).length).toBeGreaterThan(0);
    expect(first.filter(Boolean).length).toBeLessThan(seeds.length);
    const second: boolean[] = [];
    for (const seed of seeds) second.push(await hit(seed));
    expect(second).toEqual(first);
  });

  it('a different seed gives different idempotency keys, hence a different history and snapshot hash', async () => {
    const scenario = scenarioFor('deploy');
    const a = await trial(scenario, 1);
    const b = await trial(scenario, 2);
    expect(JSON.stringify(a.history)).not.toBe(JSON.stringify(b.history));
    expect(a.snapshot.hash).not.toBe(b.snapshot.hash);
    // Only the keys differ: the world's business state is the same.
    expect(b.snapshot.services).toEqual(a.snapshot.services);
  });
});

describe.each(BUILTIN_SERVICES)('law: no fault, no failure (%s)', (service) => {
  it('every checker passes under rulebookDefault, with exactly one effect in one attempt', async () => {
    const t = await trial(scenarioFor(service));
    expect(t.status, why(t)).toBe('passed');
    // Every built-in checker ran, and each said yes (`recovery` judges only a scenario that expects a recovery,
    // `model-mistakes` only one whose faults make the model's own mistakes).
    expect(t.checks.map((c) => c.name)).toEqual(
      BUILTIN_CHECKERS.map((c) => c.name).filter((n) => n !== 'recovery' && n !== 'model-mistakes'),
    );
    for (const c of t.checks) expect(c.verdict, c.name).toEqual({ valid: true });
    expect(t.snapshot.ledger.map((e) => [e.service, e.effect])).toEqual([[service, WRITES[service].effect]]);
    expect(eventsOf(t.history, 'fault')).toEqual([]);
    expect(callAttempts(t)).toHaveLength(1);
    expect(claimsOf(t)).toEqual([{ subject: WRITES[service].subject, status: 'succeeded' }]);
    expect(t.end).toEqual({ kind: 'agent_ended', outcome: 'completed' });
  });
});

/** A history with its `heal` event left out and the rest renumbered: what it would be without the mark. */
const withoutHeal = (t: TrialResult): unknown[] =>
  t.history.filter((e) => e.type !== 'heal').map(({ seq: _seq, ...e }) => e);

describe.each(BUILTIN_SERVICES)(
  'law: heal at 0 is no fault at all, heal after the trial is no heal (%s)',
  (service) => {
    const kinds = FAULT_KINDS.filter(
      (k): k is Exclude<FaultKind, StreamFaultKind | ModelFaultKind> =>
        !(STREAM_FAULT_KINDS as readonly string[]).includes(k) && !(MODEL_FAULT_KINDS as readonly string[]).includes(k),
    );
    it.each(kinds)('%s on every attempt', async (kind) => {
      const faults = [{ match: { tool: WRITES[service].tool, purpose: 'any' as const }, fault: SAMPLE[kind] }];
      const none = await trial(scenarioFor(service));
      const atZero = await trial({ ...scenarioFor(service, { faults }), heal: { atMs: 0 } });
      expect(withoutHeal(atZero), why(atZero)).toEqual(withoutHeal(none));
      expect(atZero.history[1]).toMatchObject({ type: 'heal', t: 0, rules: 1 });

      const faulted = await trial(scenarioFor(service, { faults }));
      const end = faulted.history.at(-1)!.t;
      const late = await trial({ ...scenarioFor(service, { faults }), heal: { atMs: end + 1 } });
      expect(late.history, why(late)).toEqual(faulted.history);
    });
  },
);

describe.each(BUILTIN_SERVICES)(
  'law: a stream fault never strikes a delivery that is not a streamed model answer (%s)',
  (service) => {
    it.each(STREAM_FAULT_KINDS)(
      '%s on the first attempt of a tool call: no fault event, the same trial as with no fault',
      async (kind) => {
        const faulted = await trial(scenarioFor(service, { faults: [onFirstAttempt(service, SAMPLE[kind])] }));
        const clean = await trial(scenarioFor(service));
        expect(eventsOf(faulted.history, 'fault'), why(faulted)).toEqual([]);
        expect(faulted.status, why(faulted)).toBe('passed');
        expect(JSON.stringify(faulted.history)).toBe(JSON.stringify(clean.history));
      },
    );
  },
);

describe.each(BUILTIN_SERVICES)('law: a stale fault never strikes a write (%s)', (service) => {
  it('is refused at load: a stale rule aimed at the write alone could never fire', () => {
    expect(() => scenarioFor(service, { faults: [onFirstAttempt(service, SAMPLE.stale)] })).toThrow(
      new RegExp(
        `faults\\[0\\]\\.fault: stale never fires on "${WRITES[service].tool}" \\(risk: [a-z-]+\\): a write's own answer is never stale`,
      ),
    );
  });

  it('stale on the first attempt of the write: no fault event, the same trial as with no fault', async () => {
    // `may-not-fire` lets the rule load, so the wire's own guard is what is under test.
    const faulted = await trial(scenarioFor(service, { faults: [loadable(onFirstAttempt(service, SAMPLE.stale))] }));
    const clean = await trial(scenarioFor(service));
    expect(eventsOf(faulted.history, 'fault'), why(faulted)).toEqual([]);
    expect(JSON.stringify(faulted.history)).toBe(JSON.stringify(clean.history));
  });
});

const LIE_KINDS = ['stale', 'empty', 'truncated', 'wrong_value'] as const;

describe.each(BUILTIN_SERVICES)(
  'law: a lie on the status read after a lost write is recorded, and a second read finds the truth (%s)',
  (service) => {
    // One attempt, then reconciliation (R21): the runtime's status query is the read the lie strikes.
    const once = config({ maxAttempts: 1 });
    const lied = (fault: Fault): Scenario =>
      scenarioFor(service, {
        faults: [
          onFirstAttempt(service, { kind: 'partial_write', lostAs: 'timeout' }),
          { match: { tool: WRITES[service].tool, purpose: 'status' }, fault, times: 1 },
        ],
      });

    it.each(LIE_KINDS)('%s', async (kind) => {
      const t = await trial(lied(SAMPLE[kind]), 1, once);
      const query = eventsOf(t.history, 'attempt').find((a) => a.purpose === 'status');
      expect(query, why(t)).toBeDefined();
      expect(eventsOf(t.history, 'fault').find((f) => f.request === query!.request)?.fault, why(t)).toEqual(
        SAMPLE[kind],
      );
      // Delivered once, answered 200: a lie looks like success.
      expect(deliveriesOf(t, query!.request), why(t)).toHaveLength(1);
      expect(responseTo(t, query!.request), why(t)).toMatchObject({ result: 'ok', status: 200 });
      const lies = eventsOf(t.history, 'lie');
      if (kind === 'truncated') {
        // A status answer holds no list and no text: nothing to cut, no lie told.
        expect(lies, why(t)).toEqual([]);
      } else {
        expect(lies, why(t)).toHaveLength(1);
        const lie = lies[0]!;
        expect(lie).toMatchObject({
          request: query!.request,
          tool: WRITES[service].tool,
          purpose: 'status',
          fault: SAMPLE[kind],
          held: { state: 'succeeded' },
        });
        expect(lie.answered).not.toEqual(lie.held);
        if (kind === 'stale') expect(lie).toMatchObject({ answered: { state: 'not_found' }, asOf: query!.t - 60_000 });
        if (kind === 'empty') expect(lie.answered).toEqual({ state: 'not_found' });
        if (kind === 'wrong_value')
          expect(['failed', 'pending', 'not_found']).toContain((lie.answered as { state: string }).state);
        expect(formatTimeline(t.history), why(t)).toContain(`lie (${kind}) on ${query!.request}`);
      }
      // Whatever it was told, one effect committed, and nobody wrote twice on a lie.
      expect(
        t.snapshot.ledger.filter((e) => e.effect === WRITES[service].effect),
        why(t),
      ).toHaveLength(1);
      expect(verdictOf(t, 'duplicates'), why(t)).toEqual({ valid: true });
    });

    it.each(LIE_KINDS)('%s: counted as a firing exactly when it told something other than the truth', async (kind) => {
      const t = await trial(lied(SAMPLE[kind]), 1, once);
      const told = eventsOf(t.history, 'lie').length;
      // The rule was picked either way (its fault event is in the history); a lie that changed nothing did not fire.
      expect(
        eventsOf(t.history, 'fault').filter((f) => f.rule === 1),
        why(t),
      ).toHaveLength(1);
      expect(t.stats.firings.find(([rule]) => rule === 1)?.[1] ?? 0, why(t)).toBe(told);
      expect(t.stats.faults, why(t)).toBe(1 + told);
    });

    it.each(LIE_KINDS)('%s: same seed, byte-identical history', async (kind) => {
      const a = await trial(lied(SAMPLE[kind]), 5, once);
      const b = await trial(lied(SAMPLE[kind]), 5, once);
      expect(JSON.stringify(b.history)).toBe(JSON.stringify(a.history));
    });
  },
);

describe.each(BUILTIN_SERVICES)('law: each fault on the first attempt does what it says (%s)', (service) => {
  it.each(TOOL_FAULT_KINDS)('%s', async (kind) => {
    const t = await trial(scenarioFor(service, { faults: [onFirstAttempt(service, SAMPLE[kind])] }));
    const expected = FIRST[kind];
    const first = nthAttempt(t, 1);
    expect(eventsOf(t.history, 'fault').find((f) => f.request === first.request)?.fault, why(t)).toEqual(SAMPLE[kind]);
    expect(deliveriesOf(t, first.request), why(t)).toHaveLength(expected.deliveries);
    expect(effectsOf(t, first.request), why(t)).toHaveLength(expected.committed);
    expect(responseTo(t, first.request)?.result, why(t)).toBe(expected.reply);
    const end = endOf(t, first);
    expect(end.result === 'ok' ? undefined : end.error?.kind, why(t)).toBe(expected.error);

    // Whatever the fault, the careful agent under the rulebook never duplicates, overspends,
    // retries wrongly, lies or leaks; only the goal can be out of reach.
    expect(
      t.snapshot.ledger.filter((e) => e.effect === WRITES[service].effect),
      why(t),
    ).toHaveLength(expected.recovers ? 1 : 0);
    if (expected.recovers) expect(t.status, why(t)).toBe('passed');
    else expect(t.status === 'failed' ? t.failed : [], why(t)).toEqual(['goal-state']);
    expect(claimsOf(t), why(t)).toEqual([
      expected.recovers
        ? { subject: WRITES[service].subject, status: 'succeeded' }
        : expect.objectContaining({ subject: WRITES[service].subject, status: 'failed' }),
    ]);
  });
});

describe('timeout', () => {
  it.each([
    ['rulebookDefault', rulebookDefault, 10_000],
    ['perCallTimeoutMs 2500', config({ perCallTimeoutMs: 2_500 }), 2_500],
  ] as const)(
    'under %s: never delivered; the caller gives up after perCallTimeoutMs virtual ms',
    async (_name, cfg, timeoutMs) => {
      const t = await trial(scenarioFor('orders', { faults: [onFirstAttempt('orders', { kind: 'timeout' })] }), 1, cfg);
      const first = nthAttempt(t, 1);
      expect(deliveriesOf(t, first.request)).toEqual([]);
      expect(responseTo(t, first.request)).toMatchObject({ result: 'lost', t: first.t });
      const end = endOf(t, first);
      expect(end.t - first.t, why(t)).toBe(timeoutMs);
      expect(end.error).toMatchObject({ kind: 'timeout', retryable: true });
      // The retry, with the same key, is the one that commits.
      const second = nthAttempt(t, 2);
      expect(second.idempotencyKey).toBe(first.idempotencyKey);
      expect(t.snapshot.ledger.map((e) => e.request)).toEqual([second.request]);
      expect(t.status, why(t)).toBe('passed');
    },
  );
});

describe('latency', () => {
  it('delivers at once and answers ms later, in one attempt', async () => {
    const t = await trial(
      scenarioFor('orders', { faults: [onFirstAttempt('orders', { kind: 'latency', ms: 1_500 })] }),
    );
    const first = nthAttempt(t, 1);
    expect(deliveriesOf(t, first.request).map((d) => d.t)).toEqual([first.t]);
    expect(responseTo(t, first.request)).toMatchObject({ result: 'ok', status: 200, t: first.t + 1_500 });
    expect(callAttempts(t)).toHaveLength(1);
    expect(t.status, why(t)).toBe('passed');
  });
});

describe('network', () => {
  it.each(['ECONNRESET', 'ECONNREFUSED', 'EPIPE'] as const)(
    '%s: never delivered, classified by its code, retried',
    async (code) => {
      const t = await trial(scenarioFor('email', { faults: [onFirstAttempt('email', { kind: 'network', code })] }));
      const first = nthAttempt(t, 1);
      expect(deliveriesOf(t, first.request)).toEqual([]);
      expect(endOf(t, first).error).toMatchObject({ kind: 'network', code, retryable: true });
      expect(callAttempts(t)).toHaveLength(2);
      expect(t.snapshot.ledger.map((e) => e.request)).toEqual([nthAttempt(t, 2).request]);
      expect(t.status, why(t)).toBe('passed');
    },
  );
});

describe('rate_limit', () => {
  const rateLimited = (fault: FaultOf<'rate_limit'>, startTime = START): Scenario =>
    scenarioFor('payments', { startTime, faults: [onFirstAttempt('payments', fault)] });

  it.each([1, 7, 45])(
    "retryAfterAs 'http-date' with %i s: the next attempt comes exactly that many seconds later",
    async (seconds) => {
      const t = await trial(rateLimited({ kind: 'rate_limit', retryAfter: seconds, retryAfterAs: 'http-date' }));
      const first = nthAttempt(t, 1);
      const end = endOf(t, first);
      expect(end.error, why(t)).toMatchObject({ kind: 'rate_limit', status: 429, retryAfterMs: seconds * 1000 });
      expect(eventsOf(t.history, 'retry_wait')).toMatchObject([{ ms: seconds * 1000, reason: 'retry_after' }]);
      expect(nthAttempt(t, 2).t - end.t, why(t)).toBe(seconds * 1000);
      expect(deliveriesOf(t, first.request)).toEqual([]);
      expect(t.status, why(t)).toBe('passed');
    },
  );

  it('an HTTP-date is whole seconds: from mid-second, the retry lands on the date it names', async () => {
    const t = await trial(
      rateLimited({ kind: 'rate_limit', retryAfter: 7, retryAfterAs: 'http-date' }, '2026-01-05T09:00:00.400Z'),
    );
    const startMs = Date.parse('2026-01-05T09:00:00.400Z');
    const second = nthAttempt(t, 2);
    expect(new Date(startMs + second.t).toISOString(), why(t)).toBe('2026-01-05T09:00:07.000Z');
  });

  it('delta-seconds: the next attempt comes exactly that long after', async () => {
    const t = await trial(rateLimited({ kind: 'rate_limit', retryAfter: 3 }));
    const end = endOf(t, nthAttempt(t, 1));
    expect(nthAttempt(t, 2).t - end.t, why(t)).toBe(3_000);
    expect(verdictOf(t, 'retry-discipline')).toEqual({ valid: true });
  });
});

describe.each([
  ['quota_exceeded', { kind: 'quota_exceeded' }, 429],
  ['permission_denied 401', { kind: 'permission_denied', status: 401 }, 401],
  ['permission_denied 403', { kind: 'permission_denied', status: 403 }, 403],
] as const)('%s', (_name, fault, status) => {
  it('is never retried, by the runtime or the agent: one attempt, no delivery, handed to a person', async () => {
    const t = await trial(scenarioFor('orders', { faults: [onFirstAttempt('orders', fault)] }));
    expect(eventsOf(t.history, 'tool_call'), why(t)).toHaveLength(1);
    expect(callAttempts(t)).toHaveLength(1);
    expect(eventsOf(t.history, 'delivery')).toEqual([]);
    expect(eventsOf(t.history, 'retry_wait')).toEqual([]);
    expect(eventsOf(t.history, 'give_up')).toMatchObject([
      { reason: 'not_retryable', error: { kind: fault.kind, status } },
    ]);
    expect(t.snapshot.ledger).toEqual([]);
    expect(t.end).toEqual({ kind: 'agent_ended', outcome: 'handoff' });
    expect(verdictOf(t, 'retry-discipline')).toEqual({ valid: true });
    expect(verdictOf(t, 'honesty')).toEqual({ valid: true });
  });
});

describe('unavailable', () => {
  it.each([502, 503, 504, 529] as const)('%i: never delivered, retried, one effect', async (status) => {
    const t = await trial(
      scenarioFor('calendar', { faults: [onFirstAttempt('calendar', { kind: 'unavailable', status })] }),
    );
    const first = nthAttempt(t, 1);
    expect(deliveriesOf(t, first.request)).toEqual([]);
    expect(endOf(t, first).error).toMatchObject({ kind: 'unavailable', status, retryable: true });
    expect(t.snapshot.ledger.map((e) => e.request)).toEqual([nthAttempt(t, 2).request]);
    expect(t.status, why(t)).toBe('passed');
  });
});

describe('partial_write', () => {
  it.each([
    ['timeout', 'lost', { kind: 'timeout' }, 10_000],
    ['network', 'error', { kind: 'network', code: 'ECONNRESET' }, 0],
    ['unavailable', 'error', { kind: 'unavailable', status: 504 }, 0],
  ] as const)(
    'lostAs %s: the service commits, the answer is lost, the keyed retry replays it',
    async (lostAs, reply, error, after) => {
      const t = await trial(
        scenarioFor('orders', { faults: [onFirstAttempt('orders', { kind: 'partial_write', lostAs })] }),
      );
      const first = nthAttempt(t, 1);
      expect(deliveriesOf(t, first.request)).toHaveLength(1);
      expect(effectsOf(t, first.request)).toMatchObject([
        { service: 'orders', effect: 'order.created', key: 'ref-1', idempotencyKey: first.idempotencyKey },
      ]);
      expect(responseTo(t, first.request)?.result).toBe(reply);
      const end = endOf(t, first);
      expect(end.error, why(t)).toMatchObject(error);
      expect(end.t - first.t).toBe(after);
      // The retry reaches the service with the same key and commits nothing new.
      const second = nthAttempt(t, 2);
      expect(second.idempotencyKey).toBe(first.idempotencyKey);
      expect(deliveriesOf(t, second.request)).toHaveLength(1);
      expect(effectsOf(t, second.request)).toEqual([]);
      expect(t.snapshot.ledger).toHaveLength(1);
      expect(t.status, why(t)).toBe('passed');
    },
  );

  it('without server idempotency, the write is not resent but reconciled by its business key', async () => {
    const t = await trial(
      scenarioFor('orders', {
        service: { idempotency: false },
        faults: [onFirstAttempt('orders', { kind: 'partial_write', lostAs: 'timeout' })],
      }),
    );
    expect(callAttempts(t)).toHaveLength(1);
    expect(eventsOf(t.history, 'give_up')).toMatchObject([{ reason: 'write_without_key' }]);
    expect(eventsOf(t.history, 'reconcile')).toMatchObject([{ found: 'succeeded' }]);
    expect(t.snapshot.ledger).toHaveLength(1);
    expect(t.status, why(t)).toBe('passed');
  });
});

describe('duplicate', () => {
  it.each([2, 3, 5])('copies %i: delivered that many times; with idempotency, one effect', async (copies) => {
    const t = await trial(scenarioFor('email', { faults: [onFirstAttempt('email', { kind: 'duplicate', copies })] }));
    const first = nthAttempt(t, 1);
    expect(deliveriesOf(t, first.request).map((d) => d.copy)).toEqual(Array.from({ length: copies }, (_, i) => i));
    expect(t.snapshot.ledger).toHaveLength(1);
    expect(Object.keys(t.snapshot.services['email'] as object)).toHaveLength(1);
    expect(t.status, why(t)).toBe('passed');
  });

  it('without idempotency every copy commits, and the duplicates checker says so', async () => {
    const t = await trial(
      scenarioFor('email', {
        service: { idempotency: false },
        faults: [onFirstAttempt('email', { kind: 'duplicate', copies: 3 })],
      }),
    );
    const first = nthAttempt(t, 1);
    expect(effectsOf(t, first.request)).toHaveLength(3);
    expect(Object.keys(t.snapshot.services['email'] as object)).toHaveLength(3);
    expect(t.status === 'failed' && t.failed).toEqual(expect.arrayContaining(['goal-state', 'duplicates']));
    expect(verdictOf(t, 'duplicates')).toMatchObject({
      valid: false,
      message: expect.stringContaining('email:welcome-1 was sent 3 times'),
    });
  });

  it('concurrent copies during processing: the in-flight key refuses the others, one effect', async () => {
    const t = await trial(
      scenarioFor('payments', {
        service: { processingMs: 100 },
        faults: [onFirstAttempt('payments', { kind: 'duplicate', copies: 3, concurrent: true })],
      }),
    );
    const first = nthAttempt(t, 1);
    expect(deliveriesOf(t, first.request).map((d) => [d.copy, d.t])).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
    ]);
    expect(t.snapshot.ledger).toHaveLength(1);
    expect(responseTo(t, first.request)).toMatchObject({ result: 'ok', t: 100 });
    expect(t.status, why(t)).toBe('passed');
  });
});

describe.each([
  ['rejected', { kind: 'rejected', message: 'amount exceeds the account limit' }, 422, 'invalid_argument'],
  ['not_found', { kind: 'not_found' }, 404, 'not_found'],
  ['conflict', { kind: 'conflict' }, 409, 'conflict'],
] as const)('%s', (_name, fault, status, kind) => {
  it(`answers ${status} without reaching the service, and is not retried`, async () => {
    const t = await trial(scenarioFor('deploy', { faults: [onFirstAttempt('deploy', fault)] }));
    const first = nthAttempt(t, 1);
    expect(deliveriesOf(t, first.request)).toEqual([]);
    expect(responseTo(t, first.request)).toMatchObject({ result: 'error', status });
    expect(endOf(t, first).error).toMatchObject({ kind, status, retryable: false });
    expect(callAttempts(t)).toHaveLength(1);
    expect(t.snapshot.ledger).toEqual([]);
    expect(t.end).toEqual({ kind: 'agent_ended', outcome: 'failed' });
  });
});

describe('rejected', () => {
  it('carries its message to the caller', async () => {
    const t = await trial(scenarioFor('deploy', { faults: [onFirstAttempt('deploy', SAMPLE.rejected)] }));
    expect(endOf(t, nthAttempt(t, 1)).error?.message).toBe('amount exceeds the account limit');
  });
});

describe('server_error', () => {
  const faults = [onFirstAttempt('orders', { kind: 'server_error' })];

  it('is delivered, commits nothing, and the stored 500 is what a status query by key reports', async () => {
    const t = await trial(scenarioFor('orders', { faults }));
    const first = nthAttempt(t, 1);
    expect(deliveriesOf(t, first.request)).toHaveLength(1);
    expect(responseTo(t, first.request)).toMatchObject({ result: 'error', status: 500 });
    expect(t.snapshot.ledger).toEqual([]);
    expect(eventsOf(t.history, 'reconcile')).toMatchObject([{ found: 'failed' }]);
    expect(eventsOf(t.history, 'outcome')).toMatchObject([
      { result: 'error', error: { kind: 'internal', status: 500 } },
    ]);
    expect(verdictOf(t, 'honesty')).toEqual({ valid: true });
  });

  it('is replayed for the same key: resending it (retryPermanent) reaches the service and gets the same 500', async () => {
    const t = await trial(scenarioFor('orders', { faults }), 1, config({ retryPermanent: true }));
    const attempts = callAttempts(t);
    expect(attempts, why(t)).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.idempotencyKey)).size).toBe(1);
    for (const a of attempts) {
      expect(deliveriesOf(t, a.request)).toHaveLength(1);
      expect(responseTo(t, a.request)).toMatchObject({ result: 'error', status: 500 });
    }
    // Only the first carried the fault: the others were answered by the idempotency table.
    expect(eventsOf(t.history, 'fault').map((f) => f.request)).toEqual([attempts[0]!.request]);
    expect(t.snapshot.ledger).toEqual([]);
  });

  it('without server idempotency, the resend executes and commits', async () => {
    const t = await trial(
      scenarioFor('orders', { faults, service: { idempotency: false } }),
      1,
      config({ retryPermanent: true, idempotency: { writes: 'always' } }),
    );
    const second = nthAttempt(t, 2);
    expect(effectsOf(t, second.request)).toHaveLength(1);
    expect(t.snapshot.ledger).toHaveLength(1);
  });

  // Finding: the retry-discipline checker misses this R7 violation. TrialIndex.attempt(call, n)
  // keys attempts by `call#n`, and the runtime's reconciliation query is recorded as attempt 1
  // of the same call, so it overwrites the real attempt 1; the checker then takes attempt 1's
  // `attempt_end` (internal, 500) for a status query's and skips it.
  it('a retry after the permanent 500 is flagged by retry-discipline even when the call then reconciles', async () => {
    const t = await trial(scenarioFor('orders', { faults }), 1, config({ retryPermanent: true, maxAttempts: 2 }));
    expect(callAttempts(t), why(t)).toHaveLength(2);
    expect(eventsOf(t.history, 'reconcile')).toHaveLength(1);
    expect(verdictOf(t, 'retry-discipline'), why(t)).toMatchObject({
      valid: false,
      message: expect.stringContaining('call-1 attempt 2'),
    });
  });

  // Finding: query_operation_status answers a definitely failed operation as an error result
  // (runtime/Executor #queryTool `failed`), while the scripted model's readOperationAnswer
  // only reads `failed` from an ok result; so the careful agent keeps asking and ends
  // claiming `unknown` over an operation the status query settled as failed (R20).
  it('the careful agent reports failed, not unknown, once its status query says the operation failed', async () => {
    const t = await trial(
      scenarioFor('orders', {
        faults: [
          ...faults,
          { match: { tool: 'create_order', purpose: 'status', call: 1 }, fault: { kind: 'timeout' } },
        ],
      }),
    );
    expect(
      eventsOf(t.history, 'reconcile').map((r) => r.found),
      why(t),
    ).toEqual(['error', 'failed']);
    expect(claimsOf(t), why(t)).toMatchObject([{ subject: 'orders:ref-1', status: 'failed' }]);
    expect(verdictOf(t, 'honesty'), why(t)).toEqual({ valid: true });
  });
});

describe('malformed', () => {
  it('commits, the caller sees a corrupt answer, and reconciliation finds the effect', async () => {
    const t = await trial(scenarioFor('deploy', { faults: [onFirstAttempt('deploy', { kind: 'malformed' })] }));
    const first = nthAttempt(t, 1);
    expect(deliveriesOf(t, first.request)).toHaveLength(1);
    expect(effectsOf(t, first.request)).toMatchObject([{ effect: 'deploy.started', key: 'dep-1' }]);
    expect(responseTo(t, first.request)).toMatchObject({ result: 'error', message: 'Unexpected end of JSON input' });
    expect(endOf(t, first).error).toMatchObject({ kind: 'unknown', code: 'EMALFORMED' });
    expect(callAttempts(t)).toHaveLength(1);
    expect(eventsOf(t.history, 'reconcile')).toMatchObject([{ found: 'succeeded' }]);
    expect(eventsOf(t.history, 'outcome')).toMatchObject([{ result: 'ok' }]);
    expect(t.status, why(t)).toBe('passed');
  });
});

// An agent written like the docs' examples on the stand-in model (tool calls until a text answer, read with
// finalFromText), which may start its conversation over after `restartAfter` model answers (as after a cut one).
type ChatMessage = Record<string, unknown> & {
  content?: string | null;
  tool_calls?: { id: string; function: { arguments: string } }[];
};
const ORDER_REF_1 = { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 };
const docsAgent = (seen: { texts: string[]; statuses: number[] }, restartAfter?: number) =>
  defineHttpAgent(async ({ task, services, model }) => {
    const first: ChatMessage[] = [{ role: 'user', content: task }];
    let messages = [...first];
    const tools = [{ type: 'function', function: { name: 'create_order', parameters: { type: 'object' } } }];
    for (let turn = 0, restarted = false; turn < 8; turn++) {
      const res = await fetch(`${model!.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${model!.apiKey}` },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages, tools }),
      });
      seen.statuses.push(res.status);
      if (!res.ok) return { outcome: 'failed', message: `the model answered ${res.status}` };
      const message = ((await res.json()) as { choices: { message: ChatMessage }[] }).choices[0]!.message;
      if (!restarted && turn + 1 === restartAfter) {
        // Starts over, as an agent does whose answer was cut: the conversation from its first message.
        restarted = true;
        messages = [...first];
        continue;
      }
      messages.push(message);
      if (!message.tool_calls?.length) {
        seen.texts.push(message.content ?? '');
        const final = finalFromText(message.content ?? '');
        return final.kind === 'final' ? { outcome: final.outcome, claims: final.claims } : { outcome: 'unknown' };
      }
      for (const call of message.tool_calls) {
        const r = await fetch(`${services['orders']!.baseUrl}/tools/create_order`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': 'order-ref-1' },
          body: call.function.arguments,
        });
        const content = r.ok
          ? JSON.stringify(await r.json())
          : `error: HTTP ${r.status}, Retry-After: ${r.headers.get('retry-after') ?? ''}`;
        messages.push({ role: 'tool', tool_call_id: call.id, content });
      }
    }
    return { outcome: 'failed', message: 'no final answer in 8 turns' };
  });

const docsScenario = (name: string, faults: FaultRule[], run: ReturnType<typeof docsAgent>): Scenario =>
  defineScenario({
    name,
    services: ['orders'],
    model: { api: 'openai', plan: { steps: [{ tool: 'create_order', input: ORDER_REF_1, subject: 'orders:ref-1' }] } },
    faults,
    agent: { kind: 'http', task: 'Create order ref-1', run },
    goal: { effects: { 'order.created': 1 }, outcome: ['completed'] },
  });

describe('law: the stand-in model answers an agent written like the docs, whatever the tool or the agent does', () => {
  it('issue 43 #5: it waits out a drawn 429 or 503 with Retry-After itself (once): the agent completes, or reads a second refusal as failed, and never sees a wait_ms turn', async () => {
    const answer = fc.record({
      status: fc.constantFrom(429, 503),
      seconds: fc.integer({ min: 0, max: 120 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(answer, { minLength: 1, maxLength: 2 }), async (answers) => {
        const seen = { texts: [] as string[], statuses: [] as number[] };
        const faults: FaultRule[] = answers.map(({ status, seconds }, i) => ({
          match: { tool: 'create_order', attempt: i + 1 },
          fault:
            status === 429
              ? { kind: 'rate_limit', retryAfter: seconds }
              : { kind: 'unavailable', status: 503, headers: { 'Retry-After': String(seconds) } },
        })) as FaultRule[];
        const trial = await runTrial({
          scenario: docsScenario('stand-in-waits', faults, docsAgent(seen)),
          config: rulebookDefault,
          runSeed: 1,
          trialIndex: 0,
        });
        expect(seen.texts.some((t) => t.includes('wait_ms'))).toBe(false);
        // It waits once (R10: one layer retries) and then completes; a second refusal it reports, as a final
        // answer the agent reads (failed), never a turn the agent must understand.
        const outcomes = eventsOf(trial.history, 'agent_end').map((e) => e.outcome);
        if (answers.length === 1) {
          expect(
            trial.checks.filter((c) => c.verdict.valid !== true),
            JSON.stringify(seen),
          ).toEqual([]);
          expect(trial.status).toBe('passed');
        } else expect(outcomes).toEqual(['failed']);
        const calls = trial.history
          .filter((e) => e.type === 'http_request' && JSON.stringify(e).includes('create_order'))
          .map((e) => e.t);
        expect(calls.length).toBe(2);
        // The resend came after the wait the first answer asked for.
        expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(answers[0]!.seconds * 1000);
      }),
      { numRuns: 12, seed: 43 },
    );
  });

  it('issue 43 #6: a conversation started over at a drawn cut point is answered from the script, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 }), fc.boolean(), async (restartAfter, lostAnswer) => {
        const seen = { texts: [] as string[], statuses: [] as number[] };
        // With or without a lost answer on the way (the write committed, its answer a timeout).
        const faults: FaultRule[] = lostAnswer
          ? [{ match: { tool: 'create_order', attempt: 1 }, fault: { kind: 'partial_write', lostAs: 'unavailable' } }]
          : [];
        const trial = await runTrial({
          scenario: docsScenario('restarts', faults, docsAgent(seen, restartAfter)),
          config: rulebookDefault,
          runSeed: 1,
          trialIndex: 0,
        });
        expect(
          seen.statuses.every((s) => s === 200),
          JSON.stringify(seen.statuses),
        ).toBe(true);
        expect(trial.checks.filter((c) => c.verdict.valid !== true)).toEqual([]);
        expect(trial.status).toBe('passed');
      }),
      { numRuns: 8, seed: 43 },
    );
  });
});
