import {
  BUILTIN_CHECKERS,
  runCheckers,
  type CheckResult,
  type Expectations,
  type TrialRecord,
} from '../../src/checks/index.js';
import type { HistoryEvent } from '../../src/core/index.js';
import { createHttpTrial, type HttpTrial } from '../../src/faults/http/createHttpTrial.js';
import { ordersRoutes } from '../../src/faults/http/toolRoutes.js';
import type { FaultPlan } from '../../src/faults/plan.js';
import { ORDER, SHOP } from './support.js';

/**
 * How a hand-written order tool retries: what it sends as `Idempotency-Key` on each try, how
 * long it waits before the next, and how many tries it makes. It knows nothing of faultline.
 */
export interface ToolHabits {
  readonly key: (attempt: number) => string | undefined;
  /** Milliseconds before the next try, given the failed answer (`undefined` after a network error or a timeout). */
  readonly waitMs: (answer: { status: number; retryAfter: string | null } | undefined, attempt: number) => number;
  readonly maxAttempts: number;
}

export const oneKey = (): string => 'order-ref-1';
export const keyPerAttempt = (attempt: number): string => `order-ref-1-try-${attempt}`;
export const noKey = (): undefined => undefined;
export const fixed = (ms: number) => (): number => ms;
/** Retry-After in seconds when the server sent one, else 1 s. */
export const honourRetryAfter = (answer: { retryAfter: string | null } | undefined): number =>
  answer?.retryAfter ? Number(answer.retryAfter) * 1000 : 1000;

/** One POST /orders with the given key; a 10 s timeout per try. */
export type Send = (init: {
  key: string | undefined;
}) => Promise<{ status: number; retryAfter: string | null; body: string }>;

export const sendWithFetch: Send = async ({ key }) => {
  const res = await fetch(`${SHOP}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
    body: JSON.stringify(ORDER),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() };
};

/** Retries everything but a success, as many hand-written loops do. */
export async function orderTool(send: Send, habits: ToolHabits): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    let answer: { status: number; retryAfter: string | null } | undefined;
    try {
      const res = await send({ key: habits.key(attempt) });
      if (res.status < 400) return `created after ${attempt} tries`;
      answer = res;
    } catch {
      answer = undefined;
    }
    if (attempt >= habits.maxAttempts) return `gave up after ${attempt} tries (${answer?.status ?? 'no answer'})`;
    await new Promise((resolve) => setTimeout(resolve, habits.waitMs(answer, attempt)));
  }
}

export const shop = (plan: FaultPlan): HttpTrial =>
  createHttpTrial({
    plan,
    serviceNames: ['orders'],
    services: (world) => [{ baseUrl: SHOP, routes: ordersRoutes(world) }],
  });

export const BUDGET: Expectations['budget'] = {
  maxTurns: 1,
  maxToolCalls: 1,
  maxAttemptsPerCall: 3,
  deadlineMs: 600_000,
};

export function recordOf(trial: HttpTrial): TrialRecord {
  return {
    scenario: 'wire',
    config: 'own-code',
    trialIndex: 0,
    seed: 1,
    history: trial.history.events,
    snapshot: trial.world.snapshot(),
    end: { kind: 'agent_ended', outcome: 'completed' },
  };
}

/** Every built-in checker on the trial, as `faultline run` would judge it. */
export const judge = (trial: HttpTrial, budget: Expectations['budget'] = BUDGET): readonly CheckResult[] =>
  runCheckers(recordOf(trial), { budget, secrets: [] }, BUILTIN_CHECKERS);

export const verdictOf = (results: readonly CheckResult[], name: string) =>
  results.find((r) => r.name === name)!.verdict;

/** The evidence rules of a failed verdict, in order. */
export function rulesOf(results: readonly CheckResult[], name: string): unknown[] {
  const v = verdictOf(results, name);
  return v.valid === false ? v.evidence.map((e) => (e as { rule?: unknown }).rule) : [];
}

/** The wire's view of each request: `create_order#1/2 http-2 key=…`. */
export const arrivals = (events: readonly HistoryEvent[]): string[] =>
  events.flatMap((e) =>
    e.type === 'http_request'
      ? [
          `${e.call}/${e.attempt} ${e.request} ${e.groupedBy}${e.idempotencyKey === undefined ? '' : ` key=${e.idempotencyKey}`}`,
        ]
      : [],
  );
