import fc from 'fast-check';
import {
  FAULT_KINDS,
  LIE_FAULT_KINDS,
  MODEL_FAULT_KINDS,
  STREAM_FAULT_KINDS,
  type Fault,
  type FaultKind,
  type FaultOf,
} from '../faults/fault.js';
import type { FaultMatch, FaultPlan, FaultRule } from '../faults/plan.js';

/**
 * One arbitrary per fault kind, shaped like `FaultSchema`, with the parameters a real API
 * sends. The mapped type makes a new fault kind a compile error here until it has one.
 */
export const FAULT_ARBITRARIES: { readonly [K in FaultKind]: fc.Arbitrary<FaultOf<K>> } = {
  timeout: fc.constant({ kind: 'timeout' }),
  latency: fc.record({ kind: fc.constant('latency'), ms: fc.integer({ min: 0, max: 20_000 }) }),
  network: fc.record({ kind: fc.constant('network'), code: fc.constantFrom('ECONNRESET', 'ECONNREFUSED', 'EPIPE') }),
  rate_limit: fc.record(
    {
      kind: fc.constant('rate_limit'),
      // Numbers, a fixed HTTP-date in the past, and garbage the runtime must not trust.
      retryAfter: fc.oneof(
        fc.integer({ min: 0, max: 120 }),
        fc.constantFrom('Wed, 21 Oct 2015 07:28:00 GMT', '2', 'soon', ''),
      ),
      retryAfterAs: fc.constantFrom('seconds', 'http-date'),
    },
    { requiredKeys: ['kind'] },
  ),
  quota_exceeded: fc.constant({ kind: 'quota_exceeded' }),
  unavailable: fc.record({ kind: fc.constant('unavailable'), status: fc.constantFrom(500, 502, 503, 504, 529) }),
  partial_write: fc.record({
    kind: fc.constant('partial_write'),
    lostAs: fc.constantFrom('timeout', 'network', 'unavailable'),
  }),
  duplicate: fc.record(
    { kind: fc.constant('duplicate'), copies: fc.integer({ min: 2, max: 4 }), concurrent: fc.boolean() },
    { requiredKeys: ['kind', 'copies'] },
  ),
  permission_denied: fc.record({ kind: fc.constant('permission_denied'), status: fc.constantFrom(401, 403) }),
  rejected: fc.record(
    { kind: fc.constant('rejected'), message: fc.constantFrom('over the limit', 'try another card') },
    { requiredKeys: ['kind'] },
  ),
  not_found: fc.constant({ kind: 'not_found' }),
  conflict: fc.constant({ kind: 'conflict' }),
  server_error: fc.constant({ kind: 'server_error' }),
  malformed: fc.constant({ kind: 'malformed' }),
  // Lags around the built-in configurations' 10 s per-call timeout, so a reconciling status query falls inside.
  stale: fc.record({ kind: fc.constant('stale'), lagMs: fc.integer({ min: 1, max: 60_000 }) }),
  empty: fc.constant({ kind: 'empty' }),
  truncated: fc.record({ kind: fc.constant('truncated'), keep: fc.integer({ min: 0, max: 3 }) }),
  // Fields the built-in services answer with; a path an answer lacks tells no lie.
  wrong_value: fc.record({
    kind: fc.constant('wrong_value'),
    path: fc.constantFrom('status', 'state', 'amountCents', '0.status', 'value.status'),
  }),
  stream_cut: fc.record({ kind: fc.constant('stream_cut'), afterEvents: fc.integer({ min: 0, max: 8 }) }),
  stream_stall: fc.record({ kind: fc.constant('stream_stall'), afterEvents: fc.integer({ min: 0, max: 8 }) }),
  stream_malformed: fc.record({ kind: fc.constant('stream_malformed'), afterEvents: fc.integer({ min: 0, max: 8 }) }),
  malformed_arguments: fc.constant({ kind: 'malformed_arguments' }),
  invalid_arguments: fc.record(
    {
      kind: fc.constant('invalid_arguments'),
      break: fc.constantFrom('missing_required', 'unknown_key', 'wrong_type', 'out_of_range'),
    },
    { requiredKeys: ['kind'] },
  ),
  wrong_target: fc.constant({ kind: 'wrong_target' }),
  unknown_tool: fc.constant({ kind: 'unknown_tool' }),
  refusal: fc.constant({ kind: 'refusal' }),
  content_filter: fc.constant({ kind: 'content_filter' }),
  empty_text: fc.constant({ kind: 'empty_text' }),
  garbled: fc.constant({ kind: 'garbled' }),
  error_in_200: fc.constant({ kind: 'error_in_200' }),
  replayed: fc.constant({ kind: 'replayed' }),
  context_length: fc.constant({ kind: 'context_length' }),
};

/**
 * Any fault that can strike any delivery, every kind equally likely (fast-check shrinks towards
 * the first: `timeout`). Stream faults are left out: they strike only streamed model answers.
 * So are lies: they fool a trusting agent by design, so a search draws them only when asked
 * (`lies`), and a seed draws the same plans it drew before they existed.
 */
export const faultArbitrary: fc.Arbitrary<Fault> = fc.oneof(
  ...FAULT_KINDS.filter(
    (k) =>
      !(STREAM_FAULT_KINDS as readonly string[]).includes(k) &&
      !(LIE_FAULT_KINDS as readonly string[]).includes(k) &&
      !(MODEL_FAULT_KINDS as readonly string[]).includes(k),
  ).map((k): fc.Arbitrary<Fault> => FAULT_ARBITRARIES[k]),
);

/**
 * The model's own mistakes (malformed or invalid arguments, a wrong target, an unknown tool, a
 * truncated, refused, filtered, empty, garbled, error-carrying, replayed or over-long answer),
 * for a scenario's model routes. `truncated` cuts mid text or mid tool call, as the provider does.
 */
export const modelFaultArbitrary: fc.Arbitrary<Fault> = fc.oneof(
  ...MODEL_FAULT_KINDS.map((k): fc.Arbitrary<Fault> => FAULT_ARBITRARIES[k]),
  fc.record(
    { kind: fc.constant('truncated'), keep: fc.integer({ min: 0, max: 40 }), at: fc.constantFrom('text', 'tool_call') },
    { requiredKeys: ['kind', 'keep'] },
  ) as fc.Arbitrary<Fault>,
);

/** A fault that looks like success (stale, empty, truncated, wrong value): drawn only where a search asks for lies. */
export const lieFaultArbitrary: fc.Arbitrary<Fault> = fc.oneof(
  ...LIE_FAULT_KINDS.map((k): fc.Arbitrary<Fault> => FAULT_ARBITRARIES[k]),
);

/** A stream fault (cut, stall, malformed chunk after a few events), for a route whose answers stream. */
export const streamFaultArbitrary: fc.Arbitrary<Fault> = fc.oneof(
  ...STREAM_FAULT_KINDS.map((k): fc.Arbitrary<Fault> => FAULT_ARBITRARIES[k]),
);

/** `arb`, or absent (undefined) `absent` times as often: a match that names every field rarely hits anything. */
// Cross-shrinking: a field shrinks to absent first, so a shrunk rule keeps only the fields its failure needs.
const maybe = <T>(arb: fc.Arbitrary<T>, absent: number): fc.Arbitrary<T | undefined> =>
  fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constant(undefined), weight: absent },
    { arbitrary: arb, weight: 1 },
  );

/** Drops absent fields, as a plan written by hand would (`exactOptionalPropertyTypes`), so a written plan has no `null`s. */
const present = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export interface FaultPlanShape {
  /** The tools rules may name (at least one): the scenario's own, so that rules hit something. */
  readonly tools: readonly string[];
  /**
   * Whether a rule may leave `tool` out and so hit every delivery (default true). An HTTP agent's
   * model API is served under the same plan: where that is not what is under test, say false.
   */
  readonly anyTool?: boolean;
  /** Largest `call` and `attempt` numbers to name (default 3). */
  readonly maxCall?: number;
  readonly maxAttempt?: number;
  /** Virtual milliseconds a time window may start at, and last (default 60 s each). */
  readonly windowMs?: number;
  /** Rules in one plan (default 1 to 4). */
  readonly minRules?: number;
  readonly maxRules?: number;
  /**
   * Model routes whose answers the agent asks to stream (`model:openai.chat.completions`…): rules
   * with stream faults are drawn on them too, a quarter of the rules. None (the default) draws
   * exactly the plans it drew before stream faults existed, so a seed's plans stay the same.
   */
  readonly streamed?: readonly string[];
  /** Draw faults that look like success too (stale, empty, truncated, wrong value), a quarter of the rules. Default false. */
  readonly lies?: boolean;
  /**
   * The scenario's model routes: rules with the model's own mistakes (`modelFaultArbitrary`) are
   * drawn on them, a quarter of the rules. None (the default) draws exactly the plans drawn before
   * these kinds existed, so a seed's plans over a scenario without a model stay the same.
   */
  readonly modelRoutes?: readonly string[];
}

/**
 * Which deliveries a generated rule hits: a tool or several, the call's own attempts or its
 * status queries, a call and attempt number, a time window, a probability. Each field is
 * often absent, and shrinks away, so a shrunk rule names only what its failure needs.
 */
export function faultMatchArbitrary(shape: FaultPlanShape): fc.Arbitrary<FaultMatch> {
  const { tools, anyTool = true, maxCall = 3, maxAttempt = 3, windowMs = 60_000 } = shape;
  if (tools.length === 0) throw new TypeError('faultMatchArbitrary needs at least one tool to aim at');
  const tool: fc.Arbitrary<string | string[]> =
    tools.length > 1
      ? fc.oneof(fc.constantFrom(...tools), fc.subarray([...tools], { minLength: 2 }))
      : fc.constant(tools[0]!);
  const window = maybe(
    fc
      .record({ from: fc.integer({ min: 0, max: windowMs }), length: fc.integer({ min: 1, max: windowMs }) })
      .map(({ from, length }) => ({ from, to: from + length })),
    4,
  );
  return fc
    .record({
      tool: anyTool ? maybe(tool, 1) : tool,
      // Status queries happen only after an unknown outcome: mostly aim at the calls themselves.
      purpose: maybe(fc.constantFrom('call' as const, 'call' as const, 'status' as const, 'any' as const), 2),
      call: maybe(fc.integer({ min: 1, max: maxCall }), 4),
      attempt: maybe(
        fc.oneof(
          fc.integer({ min: 1, max: maxAttempt }),
          fc.uniqueArray(fc.integer({ min: 1, max: maxAttempt }), { minLength: 1, maxLength: maxAttempt }),
        ),
        1,
      ),
      window,
      // Hundredths, so a written plan reads `probability: 0.35`, not 0.35000000000000003.
      probability: maybe(
        fc.integer({ min: 1, max: 99 }).map((n) => n / 100),
        2,
      ),
    })
    .map(({ window: w, ...m }) => present({ ...m, ...(w && { from: w.from, to: w.to }) }) as FaultMatch);
}

/** One rule: a match, a fault, and often a `times` limit. */
export function faultRuleArbitrary(shape: FaultPlanShape): fc.Arbitrary<FaultRule> {
  const times = maybe(fc.integer({ min: 1, max: 3 }), 2);
  const plain = fc
    .record({ match: faultMatchArbitrary(shape), fault: faultArbitrary, times })
    .map((r) => present(r) as FaultRule);
  const rule =
    shape.lies === true
      ? fc.oneof(
          { arbitrary: plain, weight: 3 },
          {
            arbitrary: fc
              .record({ match: faultMatchArbitrary(shape), fault: lieFaultArbitrary, times })
              .map((r) => present(r) as FaultRule),
            weight: 1,
          },
        )
      : plain;
  const withMistakes = modelRuleOf(shape, rule, times);
  const streamed = shape.streamed ?? [];
  if (streamed.length === 0) return withMistakes;
  // A stream fault strikes only a streamed answer: aim it at the streamed routes, by name.
  const streamRule = fc
    .record({
      match: faultMatchArbitrary({ ...shape, tools: streamed, anyTool: false }),
      fault: streamFaultArbitrary,
      times,
    })
    .map((r) => present(r) as FaultRule);
  return fc.oneof({ arbitrary: withMistakes, weight: 3 }, { arbitrary: streamRule, weight: 1 });
}

/** `rule`, or a quarter of the time a model mistake aimed at the model routes by name (none: `rule` as it was). */
function modelRuleOf(
  shape: FaultPlanShape,
  rule: fc.Arbitrary<FaultRule>,
  times: fc.Arbitrary<number | undefined>,
): fc.Arbitrary<FaultRule> {
  const routes = shape.modelRoutes ?? [];
  if (routes.length === 0) return rule;
  const mistake = fc
    .record({
      match: faultMatchArbitrary({ ...shape, tools: routes, anyTool: false }),
      fault: modelFaultArbitrary,
      times,
    })
    .map((r) => present(r) as FaultRule);
  return fc.oneof({ arbitrary: rule, weight: 3 }, { arbitrary: mistake, weight: 1 });
}

/**
 * A fault plan over `shape.tools`: every value is valid under `FaultPlanSchema`, and fast-check
 * shrinks it towards fewer rules, each with fewer fields.
 *
 * Slots of optional rules rather than `fc.array`: an array shrinks by dropping its first items,
 * so a plan whose second rule is the one that matters would keep the first; each slot shrinks
 * to "no rule" on its own, so any rule can go.
 *
 * @example fc.sample(faultPlanArbitrary({ tools: ['create_order'] }), 1)
 * // [[{ match: { tool: 'create_order', attempt: 1 }, fault: { kind: 'duplicate', copies: 2 } }]]
 */
export function faultPlanArbitrary(shape: FaultPlanShape): fc.Arbitrary<FaultPlan> {
  const { minRules = 1, maxRules = 4 } = shape;
  const slot = fc.option(faultRuleArbitrary(shape), { nil: undefined, freq: 2 });
  return fc
    .tuple(...Array.from({ length: maxRules }, () => slot))
    .map((slots) => slots.filter((r): r is FaultRule => r !== undefined))
    .filter((plan) => plan.length >= minRules);
}
