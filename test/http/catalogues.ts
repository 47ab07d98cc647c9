/**
 * The public catalogues of LLM-API faults for agents, entry by entry, and the faultline rule that
 * gives the agent the same damage (issue 45): AgentChaos's 65 fault configurations (github
 * floritange/AgentChaos, agentchaos/fault_config.py) and agent-chaos's 8 injectors (npm, github
 * reaatech/agent-chaos, packages/core/src/injectors). As data: catalogues.msw.test.ts runs every
 * AgentChaos entry's rule against an agent on the openai SDK and checks the damage it saw, and
 * renders the table docs/real-models.md carries, so the docs and the test cannot drift apart.
 */
import type { Fault } from '../../src/faults/fault.js';
import type { FaultRule } from '../../src/faults/plan.js';

export const CHAT = 'model:openai.chat.completions';

/** The probe's final answer: text with a non-ASCII character, so mojibake shows. */
export const FINAL = { outcome: 'completed', message: 'Order placed: one book, a café receipt.', claims: [] } as const;
export const FINAL_TEXT = JSON.stringify(FINAL);

/** What the agent must see on an answer the rule struck. */
export type Damage =
  | { readonly kind: 'text'; readonly equals: string }
  | { readonly kind: 'empty' }
  | { readonly kind: 'cut'; readonly keep: number }
  | { readonly kind: 'garbled-text' }
  | { readonly kind: 'no-arguments' }
  | { readonly kind: 'not-json' }
  | { readonly kind: 'garbled-arguments' }
  | { readonly kind: 'renamed-keys' }
  | { readonly kind: 'no-calls' }
  | { readonly kind: 'filtered' }
  | { readonly kind: 'previous' }
  | { readonly kind: 'another-value' }
  | { readonly kind: 'slow'; readonly ms: number };

/** How close faultline's damage is to the entry's: `same`, or `nearly` with what differs. */
export type Likeness =
  { readonly kind: 'same'; readonly note?: string } | { readonly kind: 'nearly'; readonly note: string };

/** One AgentChaos base fault (content or tool call × error, timeout, empty, truncate, corrupt, schema). */
interface Base {
  readonly id: string;
  /** What the catalogue does to the answer, in its words. */
  readonly theirs: string;
  /** The answers it strikes: text answers (content) or answers with a tool call. */
  readonly answer: 'text' | 'call';
  readonly fault: Fault;
  readonly damage: Damage;
  readonly likeness: Likeness;
}

export interface CatalogueEntry {
  readonly id: string;
  readonly theirs: string;
  readonly answer: 'text' | 'call';
  readonly rule: FaultRule;
  readonly damage: Damage;
  readonly likeness: Likeness;
  /** The probe's calls the rule strikes (1-based), or `drawn` (a probability). */
  readonly fires: readonly number[] | 'drawn';
}

/** The probe's calls per trial: enough for a run of 3 and an intermittent rule to show both ways. */
export const CALLS = 6;

const API_ERROR = '[API ERROR] HTTP 500: Internal Server Error. The server encountered an unexpected condition.';
const TIMEOUT_TEXT = '[TIMEOUT] The request timed out. The server did not respond within the expected time.';
const SCHEMA_TEXT = '{"error": "content_policy_violation", "message": "This response has been filtered."}';
const UNAVAILABLE_TEXT = '[SERVICE UNAVAILABLE] HTTP 503: The server is temporarily unable to handle the request.';
const NGINX_502 =
  '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n' +
  '<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx/1.24.0</center></body></html>';

const keepShare = (share: number): number => Math.floor(FINAL_TEXT.length * share);
const DROPPED_CALL =
  'an answer with neither text nor call; theirs keeps `finish_reason: tool_calls` beside no call, faultline says `stop`';

const BASES: readonly Base[] = [
  {
    id: 'llm_error',
    theirs: 'content set to an HTTP 500 error text',
    answer: 'text',
    fault: { kind: 'error_in_200', message: API_ERROR },
    damage: { kind: 'text', equals: API_ERROR },
    likeness: { kind: 'same', note: 'a real 500 is `unavailable { status: 500 }`' },
  },
  {
    id: 'llm_timeout',
    theirs: 'content set to a timeout text',
    answer: 'text',
    fault: { kind: 'error_in_200', message: TIMEOUT_TEXT },
    damage: { kind: 'text', equals: TIMEOUT_TEXT },
    likeness: { kind: 'same', note: 'a real timeout, no answer at all, is `timeout`' },
  },
  {
    id: 'llm_empty',
    theirs: 'content set to ""',
    answer: 'text',
    fault: { kind: 'empty_text' },
    damage: { kind: 'empty' },
    likeness: { kind: 'same' },
  },
  {
    id: 'llm_truncate',
    theirs: 'content cut at 30%',
    answer: 'text',
    fault: { kind: 'truncated', at: 'text', keep: keepShare(0.3) },
    damage: { kind: 'cut', keep: keepShare(0.3) },
    likeness: {
      kind: 'nearly',
      note: '`keep` counts characters (here 30% of the answer); faultline also says `finish_reason: length`, as a provider does',
    },
  },
  {
    id: 'llm_corrupt',
    theirs: 'content as mojibake (UTF-8 read as Latin-1)',
    answer: 'text',
    fault: { kind: 'garbled' },
    damage: { kind: 'garbled-text' },
    likeness: { kind: 'same', note: 'faultline also puts U+FFFD in a share of the ASCII' },
  },
  {
    id: 'llm_schema',
    theirs: 'content set to a JSON error object',
    answer: 'text',
    fault: { kind: 'error_in_200', message: SCHEMA_TEXT },
    damage: { kind: 'text', equals: SCHEMA_TEXT },
    likeness: { kind: 'same' },
  },
  {
    id: 'tool_error',
    theirs: 'arguments set to `{}` (missing required params)',
    answer: 'call',
    fault: { kind: 'invalid_arguments', break: 'no_arguments' },
    damage: { kind: 'no-arguments' },
    likeness: { kind: 'same' },
  },
  {
    id: 'tool_timeout',
    theirs: 'the tool call dropped (tool never executed)',
    answer: 'call',
    fault: { kind: 'empty_text' },
    damage: { kind: 'no-calls' },
    likeness: { kind: 'nearly', note: DROPPED_CALL },
  },
  {
    id: 'tool_empty',
    theirs: '`tool_calls` set to `[]`',
    answer: 'call',
    fault: { kind: 'empty_text' },
    damage: { kind: 'no-calls' },
    likeness: { kind: 'nearly', note: DROPPED_CALL },
  },
  {
    id: 'tool_truncate',
    theirs: 'arguments cut at 30% (broken JSON)',
    answer: 'call',
    fault: { kind: 'malformed_arguments' },
    damage: { kind: 'not-json' },
    likeness: {
      kind: 'nearly',
      note: 'cut at a drawn point (or a brace lost), not at 30%; `truncated { at: tool_call }` cuts and says `length`',
    },
  },
  {
    id: 'tool_corrupt',
    theirs: '~20% of the arguments replaced by random Unicode',
    answer: 'call',
    fault: { kind: 'garbled' },
    damage: { kind: 'garbled-arguments' },
    likeness: {
      kind: 'nearly',
      note: 'faultline garbles the string values and keeps the JSON valid; broken syntax is `malformed_arguments`',
    },
  },
  {
    id: 'tool_schema',
    theirs: 'arguments with wrong param keys',
    answer: 'call',
    fault: { kind: 'invalid_arguments', break: 'renamed_keys' },
    damage: { kind: 'renamed-keys' },
    likeness: { kind: 'same', note: 'every key renamed, the values kept; theirs is one fixed key' },
  },
];

/** AgentChaos's four strategies, each as a rule's schedule, and the probe calls it strikes. */
export const SCHEDULES = {
  single: { rule: { times: 1 }, shown: 'times: 1', fires: [1] },
  persistent: { rule: {}, shown: '(always)', fires: [1, 2, 3, 4, 5, 6] },
  intermittent: { rule: { match: { probability: 0.3 } }, shown: 'probability: 0.3', fires: 'drawn' },
  burst: { rule: { times: 3 }, shown: 'times: 3', fires: [1, 2, 3] },
} as const;

const ruleOf = (fault: Fault, schedule: { match?: object; times?: number }): FaultRule =>
  ({ ...schedule, match: { tool: CHAT, ...schedule.match }, fault }) as FaultRule;

interface Compound extends Omit<CatalogueEntry, 'rule'> {
  readonly fault: Fault;
  readonly schedule: { readonly match?: { readonly call?: number }; readonly times?: number };
}

const COMPOUNDS: readonly Compound[] = [
  {
    id: 'compound_api_degradation',
    theirs: '3 s delay, then content set to an HTTP 503 text',
    answer: 'text',
    fault: { kind: 'error_in_200', message: UNAVAILABLE_TEXT },
    schedule: { times: 1 },
    damage: { kind: 'text', equals: UNAVAILABLE_TEXT },
    fires: [1],
    likeness: {
      kind: 'nearly',
      note: 'one rule strikes one request: the 3 s spike is a second rule, `latency { ms: 3000 }`, on another',
    },
  },
  {
    id: 'compound_content_filter',
    theirs: '`tool_calls` stripped, a filter notice, `finish_reason: content_filter`',
    answer: 'call',
    fault: { kind: 'content_filter' },
    schedule: { times: 1 },
    damage: { kind: 'filtered' },
    fires: [1],
    likeness: { kind: 'nearly', note: 'the text is what came before the filter (here none), not a notice' },
  },
  {
    id: 'compound_max_tokens',
    theirs: 'content cut at 50%, `finish_reason: length`',
    answer: 'text',
    fault: { kind: 'truncated', at: 'text', keep: keepShare(0.5) },
    schedule: { times: 1 },
    damage: { kind: 'cut', keep: keepShare(0.5) },
    fires: [1],
    likeness: { kind: 'same', note: '`keep` counts characters (here 50% of the answer)' },
  },
  {
    id: 'compound_proxy_html',
    theirs: "content set to nginx's 502 page",
    answer: 'text',
    fault: { kind: 'error_in_200', message: NGINX_502 },
    schedule: { times: 1 },
    damage: { kind: 'text', equals: NGINX_502 },
    fires: [1],
    likeness: { kind: 'same', note: "`error_in_200`'s default is such a page" },
  },
  {
    id: 'compound_stale_cache',
    theirs: 'the previous response again, on the 2nd call',
    answer: 'call',
    fault: { kind: 'replayed' },
    schedule: { match: { call: 2 }, times: 1 },
    damage: { kind: 'previous' },
    fires: [2],
    likeness: { kind: 'same' },
  },
  {
    id: 'compound_stale_data',
    theirs: 'a tool argument set to a wrong value',
    answer: 'call',
    fault: { kind: 'wrong_target' },
    schedule: { times: 1 },
    damage: { kind: 'another-value' },
    fires: [1],
    likeness: {
      kind: 'nearly',
      note: 'the wrong value is drawn: another id the world holds, else a slipped amount; theirs a fixed city',
    },
  },
  {
    id: 'compound_wrong_entity',
    theirs: 'a tool argument set to an ambiguous entity',
    answer: 'call',
    fault: { kind: 'wrong_target' },
    schedule: { times: 1 },
    damage: { kind: 'another-value' },
    fires: [1],
    likeness: { kind: 'nearly', note: 'another entity of the same kind, not an ambiguous name' },
  },
  {
    id: 'compound_slow_response',
    theirs: '5 s delay, then the answer',
    answer: 'text',
    fault: { kind: 'latency', ms: 5000 },
    schedule: { times: 1 },
    damage: { kind: 'slow', ms: 5000 },
    fires: [1],
    likeness: { kind: 'same', note: 'on the virtual clock: the trial does not wait 5 s' },
  },
];

const POSITIONS = { early: 1, mid: 2, late: 3 } as const;

function entries(): CatalogueEntry[] {
  const out: CatalogueEntry[] = [];
  for (const b of BASES)
    for (const [name, s] of Object.entries(SCHEDULES))
      out.push({
        id: `${b.id}_${name}`,
        theirs: b.theirs,
        answer: b.answer,
        rule: ruleOf(b.fault, s.rule),
        damage: b.damage,
        likeness: b.likeness,
        fires: s.fires,
      });
  for (const { fault, schedule, ...c } of COMPOUNDS) out.push({ ...c, rule: ruleOf(fault, schedule) });
  for (const id of ['llm_error', 'llm_timeout', 'llm_schema'])
    for (const [pos, call] of Object.entries(POSITIONS)) {
      const b = BASES.find((x) => x.id === id)!;
      out.push({
        id: `${id}_pos_${pos}`,
        theirs: `${b.theirs}, at the ${['1st', '2nd', '3rd'][call - 1]} LLM call`,
        answer: 'text',
        rule: ruleOf(b.fault, { match: { call }, times: 1 }),
        damage: b.damage,
        likeness: { kind: 'same', note: 'theirs sets the text beside any tool call; faultline answers the text alone' },
        fires: [call],
      });
    }
  return out;
}

/** AgentChaos's 65 entries, in its catalogue's order. */
export const AGENT_CHAOS_65: readonly CatalogueEntry[] = entries();

/**
 * agent-chaos's 8 injectors. Each wraps a tool call (it answers instead of the tool), so its
 * faultline rule names the tool, not the model route.
 */
export const AGENT_CHAOS_INJECTORS: readonly {
  readonly injector: string;
  readonly theirs: string;
  readonly faultline: string;
  readonly likeness: Likeness;
}[] = [
  {
    injector: 'LatencyInjector',
    theirs: 'waits a delay drawn between min and max',
    faultline: '`latency { ms }`, or `network` latency with a distribution',
    likeness: { kind: 'same' },
  },
  {
    injector: 'TimeoutInjector',
    theirs: 'a `TIMEOUT` error at once',
    faultline: '`timeout`',
    likeness: { kind: 'nearly', note: "faultline never answers, and the caller's own timeout ends the wait (R18)" },
  },
  {
    injector: 'RateLimitInjector',
    theirs: 'a `RATE_LIMIT_EXCEEDED` error with `retryAfter`',
    faultline: '`rate_limit { retryAfter }`',
    likeness: { kind: 'same', note: 'a real 429 with `Retry-After`' },
  },
  {
    injector: 'MalformedOutputInjector',
    theirs: 'a result truncated, not JSON, missing fields, of a wrong type, or with extra fields',
    faultline: '`malformed`; `empty` and `wrong_value` lies',
    likeness: { kind: 'same' },
  },
  {
    injector: 'TokenLimitInjector',
    theirs: 'a `TOKEN_LIMIT_EXCEEDED` error after N calls',
    faultline: '`context_length` on the model route (`call`, `from`)',
    likeness: { kind: 'nearly', note: "the provider's real 400, not a tool's error" },
  },
  {
    injector: 'PartialFailureInjector',
    theirs: 'at a rate, connection refused, query timeout or partial data',
    faultline: '`network { code: ECONNREFUSED }`, `timeout`, `partial_write`, with `probability`',
    likeness: { kind: 'same' },
  },
  {
    injector: 'StaleContextInjector',
    theirs: 'a cached result with an old timestamp',
    faultline: '`stale { lagMs }` on a read',
    likeness: { kind: 'nearly', note: 'the world as it was `lagMs` ago, not the arguments echoed back' },
  },
  {
    injector: 'ContradictionInjector',
    theirs: 'a result whose fields take values drawn from conflicting sets',
    faultline: '`wrong_value`',
    likeness: { kind: 'nearly', note: "values drawn from the tool's declared output, not from the user's sets" },
  },
];

/** A fault as a scenario writes it, long strings shortened for the table. */
export function shownFault(fault: Fault): string {
  const parts = Object.entries(fault).map(([k, v]) => {
    if (typeof v !== 'string') return `${k}: ${String(v)}`;
    const short = v.length > 24 ? `${v.slice(0, 22).replace(/\n/g, ' ')}…` : v;
    return k === 'message' ? `${k}: ${JSON.stringify(short)}` : `${k}: ${v}`;
  });
  return `{ ${parts.join(', ')} }`;
}

const likeness = (l: Likeness): string =>
  l.kind === 'same' ? (l.note === undefined ? 'same' : `same (${l.note})`) : `nearly: ${l.note}`;

const schedulesShown = Object.entries(SCHEDULES)
  .map(([name, s]) => `${name}: \`${s.shown}\``)
  .join(', ');

/** The mapping as docs/real-models.md carries it (checked there by catalogues.msw.test.ts). */
export function catalogueTables(): string {
  const base = BASES.map(
    (b) => `| \`${b.id}_*\` | ${b.theirs} | \`${shownFault(b.fault)}\` on \`${CHAT}\` | ${likeness(b.likeness)} |`,
  );
  const schedule = (e: CatalogueEntry): string => {
    const m = e.rule.match;
    return [m?.call !== undefined ? `call: ${String(m.call)}` : '', e.rule.times ? `times: ${e.rule.times}` : '']
      .filter((x) => x !== '')
      .join(', ');
  };
  const others = AGENT_CHAOS_65.slice(BASES.length * 4).map(
    (e) =>
      `| \`${e.id}\` | ${e.theirs} | \`${shownFault(e.rule.fault)}\`, \`${schedule(e)}\` | ${likeness(e.likeness)} |`,
  );
  const injectors = AGENT_CHAOS_INJECTORS.map(
    (i) => `| \`${i.injector}\` | ${i.theirs} | ${i.faultline} | ${likeness(i.likeness)} |`,
  );
  return [
    `AgentChaos's 48 base entries: 12 base faults under 4 strategies, each a schedule of the same rule (${schedulesShown}):`,
    '',
    '| AgentChaos | what it does to the answer | faultline rule | the same damage? |',
    '|---|---|---|---|',
    ...base,
    '',
    'Its 8 compound and 9 positional entries (a positional entry is the N-th call: `call: N`):',
    '',
    '| AgentChaos | what it does to the answer | faultline rule | the same damage? |',
    '|---|---|---|---|',
    ...others,
    '',
    "agent-chaos's 8 injectors, on a tool (each answers instead of the tool):",
    '',
    '| agent-chaos | what the agent gets | faultline fault on the tool | the same damage? |',
    '|---|---|---|---|',
    ...injectors,
  ].join('\n');
}
