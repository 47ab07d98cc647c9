import { BUILTIN_CHECKERS, type FaultPlan, type HistoryEvent, type Verdict } from 'faultline';
import { createHttpTrial, ordersRoutes, runWithMsw } from 'faultline/msw';
import { createOrder, type CreateOrderOptions, type Order } from './createOrder.js';

export const SHOP = 'https://api.shop.test';
export const ORDER: Order = { clientReference: 'ref-42', item: 'book', quantity: 1, amountCents: 1_500 };

const duplicates = BUILTIN_CHECKERS.find((c) => c.name === 'duplicates')!;

export interface OrderTrialResult {
  /** What the tool returned, or the message it failed with. */
  readonly outcome: string;
  readonly orders: readonly string[];
  readonly duplicates: Verdict;
  readonly history: readonly HistoryEvent[];
}

/**
 * One trial of the unmodified tool against the orders service's REST API under `plan`: the
 * tool's real fetch goes through msw, its 10 s timeout and backoff run on virtual time, and
 * the duplicates checker judges the world it leaves behind.
 */
export async function orderTrial(
  plan: FaultPlan,
  tool: Omit<CreateOrderOptions, 'baseUrl'> = {},
): Promise<OrderTrialResult> {
  const trial = createHttpTrial({
    plan,
    serviceNames: ['orders'],
    services: (world) => [{ baseUrl: SHOP, routes: ordersRoutes(world) }],
  });
  const run = await runWithMsw(trial.faults, trial.clock, () => createOrder(ORDER, { baseUrl: SHOP, ...tool }), {
    timers: { random: trial.clientRandom },
  });
  const outcome =
    run.kind === 'settled'
      ? `created ${run.value.orderId}`
      : run.kind === 'threw'
        ? `failed: ${String(run.error)}`
        : run.kind;
  const snapshot = trial.world.snapshot();
  const record = {
    scenario: 'rest-order-tool',
    config: 'as-shipped',
    trialIndex: 0,
    seed: 1,
    history: trial.history.events,
    snapshot,
    end: { kind: 'agent_ended', outcome: 'completed' },
  } as const;
  const budget = { maxTurns: 1, maxToolCalls: 1, maxAttemptsPerCall: 3, deadlineMs: 60_000 };
  return {
    outcome,
    orders: Object.keys(snapshot.services['orders'] as object),
    duplicates: duplicates.check(record, { budget, secrets: [] }),
    history: trial.history.events,
  };
}
