import { wallMs } from '../core/clock/RealClock.js';
import type { ModelUsage } from '../core/events.js';
import { modelRoot } from '../model/api/modelOperations.js';
import { startLiveGateway } from '../model/live/LiveGateway.js';
import { DEFAULT_LIVE_RETRY } from '../model/live/liveDefaults.js';
import { formatCost } from '../model/live/prices.js';
import { API_KEY_ENV, type LiveRun } from '../scenario/modelSource.js';
import type { Scenario } from '../scenario/scenario.js';

/** A `--live` or `--record` run's gateway, for as long as the run lasts. */
export interface LiveSession {
  readonly run: LiveRun;
  /** `live: 12/240 trials, 8 in flight, 3 retried, 0 infra errors, 41,200 tokens, $0.0123`, at most every 2 s (and for the last trial). */
  progressLine(done: number, total: number, spent: number): string | undefined;
  /** What the provider's answers have cost so far, trials in flight included (0 without a price for the model). */
  spent(): number;
  close(): Promise<void>;
}

export interface LiveSessionOptions {
  readonly maxConnections: number;
  readonly recordDir: string;
  readonly retries?: number;
  /** `--record`: a request already sent is answered as it was the first time (see `LiveGatewayOptions.reuseAnswers`). */
  readonly reuseAnswers?: boolean;
  /**
   * `--max-cost`: once the answers have cost this much, no further request is sent (the trials in
   * flight end not judged) and `onLimit` hears it once; priced as each answer comes back.
   */
  readonly maxCost?: {
    readonly limit: number;
    readonly price: (model: string | undefined, usage: ModelUsage) => number | undefined;
    readonly onLimit: () => void;
  };
}

const PROGRESS_EVERY_MS = 2_000;

/** Starts the gateway every live model request of the run goes through, with the keys from the environment. */
export async function startLiveRun(
  scenarios: readonly Scenario[],
  env: Readonly<Record<string, string | undefined>>,
  options: LiveSessionOptions,
): Promise<LiveSession> {
  const keys: Partial<Record<'openai' | 'anthropic', string>> = {};
  const upstreams: string[] = [];
  // A scenario's model.name prices its trials (as the run prices them), else the model its requests name.
  const named: [string, string][] = [];
  for (const s of scenarios) {
    if (!s.model) continue;
    const key = env[API_KEY_ENV[s.model.api]];
    if (key !== undefined && key !== '') keys[s.model.api] = key;
    upstreams.push(modelRoot(s.model.api, s.model.baseUrl));
    if (s.model.name !== undefined)
      named.push([modelRoot(s.model.api, s.model.baseUrl).replace(/\/+$/, ''), s.model.name]);
  }
  let tokens = 0;
  let spent = 0;
  let dearest = 0;
  const maxCost = options.maxCost;
  const gateway = await startLiveGateway({
    maxConnections: options.maxConnections,
    keys,
    upstreams,
    retry: { ...DEFAULT_LIVE_RETRY, ...(options.retries !== undefined && { retries: options.retries }) },
    ...(options.reuseAnswers === true && { reuseAnswers: true }),
    onAnswer: ({ model, usage, url }) => {
      tokens += (usage?.input ?? 0) + (usage?.output ?? 0);
      if (usage === undefined || maxCost === undefined) return;
      const before = spent;
      const cost =
        maxCost.price(named.find(([root]) => url === root || url.startsWith(`${root}/`))?.[1] ?? model, usage) ?? 0;
      dearest = Math.max(dearest, cost);
      spent += cost;
      if (before < maxCost.limit && spent >= maxCost.limit) maxCost.onLimit();
    },
    // A request in flight will cost about what the dearest answer so far did: admitted only while those could not pass the limit.
    ...(maxCost && {
      admit: (others: number) =>
        spent + others * dearest >= maxCost.limit
          ? `not sent: the run stopped at --max-cost ${maxCost.limit} (${formatCost(spent)} spent); this trial was not judged`
          : undefined,
    }),
  });
  let last = -Infinity;
  return {
    run: { gateway: gateway.url, recordDir: options.recordDir },
    progressLine(done, total, spent) {
      const now = wallMs();
      if (done < total && now - last < PROGRESS_EVERY_MS) return undefined;
      last = now;
      const s = gateway.stats();
      return (
        `live: ${done}/${total} trials, ${s.inFlight} model requests in flight (most ${s.maxInFlight}), ` +
        `${s.retries} retried, ${s.infraErrors} infra errors, ${tokens.toLocaleString('en-US')} tokens, ${formatCost(spent)}`
      );
    },
    spent: () => spent,
    close: () => gateway.close(),
  };
}
