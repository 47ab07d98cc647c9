import { canonicalJson, failAll, type AgentOutcomeKind, type Verdict } from '../core/index.js';
import { redactText } from '../core/redactText.js';
import { tailText } from '../core/tailText.js';
import { lieNote } from './lieNote.js';
import type { Checker } from './checker.js';
import { list, seqs, show, times } from './format.js';
import type { TrialRecord } from './record.js';
import { TrialIndex } from './trialIndex.js';

/** One place where the final state differs from the goal. */
export interface StateDiff {
  /** `orders["ref-1"].status`-style path into `snapshot.services`. */
  readonly path: string;
  readonly expected: unknown;
  /** `undefined` when the path does not exist in the snapshot. */
  readonly actual: unknown;
}

const isPlainObject = (v: unknown): v is Readonly<Record<string, unknown>> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const step = (path: string, key: string): string => {
  const plain = /^[A-Za-z_$][\w$-]*$/.test(key);
  if (path === '') return plain ? key : `[${JSON.stringify(key)}]`;
  return plain ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
};

/**
 * Deep partial match: on objects only the expected keys are compared, recursively; arrays
 * and scalars must be equal (canonical JSON, so key order inside arrays' objects does not matter).
 */
export function partialDiff(expected: unknown, actual: unknown, path = ''): StateDiff[] {
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return [{ path: path || '(root)', expected, actual }];
    return Object.keys(expected).flatMap((k) => partialDiff(expected[k], actual[k], step(path, k)));
  }
  if (actual !== undefined && canonicalJson(expected) === canonicalJson(actual)) return [];
  return [{ path: path || '(root)', expected, actual }];
}

function outcomeProblem(
  record: TrialRecord,
  allowed: readonly AgentOutcomeKind[],
  secrets: readonly string[],
): { message: string; evidence: unknown } | undefined {
  const end = record.end;
  switch (end.kind) {
    case 'crashed':
      return { message: `the agent crashed before finishing: ${end.message}`, evidence: { end } };
    case 'hung':
      return {
        message:
          end.message !== undefined
            ? `the agent hung: ${end.message}`
            : `the agent hung at t=${end.at}ms and never finished`,
        evidence: { end },
      };
    case 'budget_exceeded':
      return {
        message: `the agent was stopped at t=${end.at}ms for exceeding its ${end.limit} limit`,
        evidence: { end },
      };
    case 'agent_ended': {
      const crowd = crowdProblem(record, allowed);
      if (crowd !== 'single') return crowd;
      const agentEnd = TrialIndex.of(record).eventsOf('agent_end').at(-1);
      const outcome = agentEnd?.outcome ?? end.outcome;
      if (allowed.includes(outcome)) return undefined;
      const byStandIn = agentEnd?.type === 'agent_end' && agentEnd.by === 'stand-in';
      const passedOn = byStandIn ? " (the stand-in model's final answer, passed on)" : '';
      return {
        message: `the agent ended with outcome ${outcome}${passedOn}, expected ${list(allowed)}${lastWords(agentEnd?.message, secrets)}`,
        evidence: { outcome, expected: allowed, ...(agentEnd ? { seq: agentEnd.seq, t: agentEnd.t } : {}) },
      };
    }
  }
}

/**
 * Lines the agent's own message ends with (a command agent's stderr tail), so a failed line says why; its last 5
 * lines, at most 300 characters.
 */
function lastWords(message: string | undefined, secrets: readonly string[]): string {
  // Scrubbed before the cut (and the cut kept out of a secret): a piece of one is found by no later scrub.
  const text = redactText(message?.trim() ?? '', secrets);
  if (text === '') return '';
  const lines = text.split('\n').slice(-5).join('\n');
  return `; the agent said: ${JSON.stringify(tailText(lines, 300, secrets))}`;
}

/** Many agents (`agent_start` events): every one of them must end with an accepted outcome. */
function crowdProblem(
  record: TrialRecord,
  allowed: readonly AgentOutcomeKind[],
): { message: string; evidence: unknown } | undefined | 'single' {
  const index = TrialIndex.of(record);
  const starts = index.eventsOf('agent_start').length;
  if (starts === 0) return 'single';
  const ends = index.eventsOf('agent_end');
  const bad = ends.filter((e) => !allowed.includes(e.outcome));
  if (bad.length === 0 && ends.length === starts) return undefined;
  const byOutcome = new Map<AgentOutcomeKind, number>();
  for (const e of bad) byOutcome.set(e.outcome, (byOutcome.get(e.outcome) ?? 0) + 1);
  const what = [...byOutcome].map(([o, n]) => `${n} with outcome ${o}`);
  if (ends.length < starts) what.push(`${starts - ends.length} never finished`);
  return {
    message: `${bad.length + starts - ends.length} of ${starts} agents did not end with ${list(allowed)}: ${what.join(', ')} (first: ${bad
      .slice(0, 3)
      .map((e) => e.caller)
      .join(', ')})`,
    evidence: {
      agents: starts,
      ended: ends.length,
      expected: allowed,
      failed: bad.slice(0, 20).map((e) => ({ caller: e.caller, outcome: e.outcome, seq: e.seq, t: e.t })),
    },
  };
}

/** R29: the final world state, not the agent's word, decides whether the task was done. */
export const goalState: Checker = {
  name: 'goal-state',
  rules: ['R29'],
  description:
    'The final snapshot matches the goal state, effect counts are exact, and the agent ended with an accepted outcome.',
  check(record, expect): Verdict {
    const goal = expect.goal ?? {};
    const problems: { message: string; evidence: unknown }[] = [];

    if (goal.state) {
      for (const d of partialDiff(goal.state, record.snapshot.services)) {
        problems.push({ message: `${d.path} is ${show(d.actual)}, expected ${show(d.expected)}`, evidence: d });
      }
    }

    for (const [name, expected] of Object.entries(goal.effects ?? {})) {
      const found = record.snapshot.ledger.filter((e) => e.effect === name);
      if (found.length === expected) continue;
      const seqList = found.map((e) => e.seq);
      problems.push({
        message: `${name} happened ${times(found.length)}, expected ${expected} (effects ${seqs(seqList)})`,
        evidence: {
          effect: name,
          expected,
          actual: found.length,
          effects: found.map((e) => ({ seq: e.seq, key: e.key, request: e.request })),
        },
      });
    }

    const outcome = outcomeProblem(record, goal.outcome ?? ['completed'], expect.secrets);
    if (outcome) problems.push(outcome);

    // A goal missed after a lie: say which, so the reader looks at what the agent was told.
    const note = problems.length > 0 ? lieNote(record.history) : undefined;
    const first = problems[0];
    if (note && first)
      problems[0] = {
        message: `${first.message}; ${note.text}`,
        evidence: { ...(first.evidence as object), lies: note.lies.map((l) => l.seq) },
      };

    return failAll(problems);
  },
};
