import type { AgentOutcomeKind, HistoryEvent } from '../core/index.js';
import type { WorldSnapshot } from '../world/snapshot.js';

/** How the agent's part of a trial ended, before any checker looks. */
export type TrialEnd =
  | { readonly kind: 'agent_ended'; readonly outcome: AgentOutcomeKind }
  /** The agent (or its model) threw. */
  | { readonly kind: 'crashed'; readonly message: string }
  /**
   * Nothing left to run on the virtual clock and the agent never finished; or (with `message`)
   * its worker stopped answering on the wall clock and was stopped, `at` then unknown (0).
   */
  | { readonly kind: 'hung'; readonly at: number; readonly message?: string }
  /** The agent exceeded its turn limit, the harness's hard cap on tool calls, or the trial's virtual time limit. */
  | { readonly kind: 'budget_exceeded'; readonly limit: 'turns' | 'tool_calls' | 'time'; readonly at: number }
  /**
   * The real model provider failed on its own (`--live`: its 429s, 5xx, timeouts or dropped
   * connections outlasted faultline's retries): the agent is not judged, and the trial counts
   * apart from pass^k.
   */
  | { readonly kind: 'infra_error'; readonly message: string };
export type TrialEndKind = TrialEnd['kind'];

/** Everything a checker may look at. Checkers are pure functions of it. */
export interface TrialRecord {
  readonly scenario: string;
  readonly config: string;
  readonly trialIndex: number;
  readonly seed: number;
  readonly history: readonly HistoryEvent[];
  readonly snapshot: WorldSnapshot;
  readonly end: TrialEnd;
}

/** What a scenario expects; checkers read the part that concerns them. */
export interface Expectations {
  readonly goal?: {
    /** A subset of `snapshot.services` that must hold (deep, partial match on objects). */
    readonly state?: Readonly<Record<string, unknown>> | undefined;
    /** Exact counts of ledger effects by name, e.g. `{ 'order.created': 1 }`. */
    readonly effects?: Readonly<Record<string, number>> | undefined;
    /** Agent outcomes that count as success (default: `completed`). */
    readonly outcome?: readonly AgentOutcomeKind[] | undefined;
  };
  readonly budget: {
    readonly maxTurns: number;
    readonly maxToolCalls: number;
    readonly maxAttemptsPerCall: number;
    /** Virtual milliseconds from the trial start. */
    readonly deadlineMs: number;
    /** Deliveries per logical operation across every retry layer (R10); unlimited when absent. */
    readonly maxDeliveriesPerOperation?: number | undefined;
  };
  /** Strings that must never appear in the history or the agent's output (R13). */
  readonly secrets: readonly string[];
  /** The scenario's `heal`: virtual ms from the trial's start after which no fault rule matches. */
  readonly heal?: { readonly atMs: number } | undefined;
  /** What the `recovery` checker judges after the heal (see `RecoveryExpectation`). */
  readonly recovery?: RecoveryExpectation | undefined;
}

/** A scenario's `recovery`: how soon, and how cheaply, the agent gets back to its goal once the faults heal. */
export interface RecoveryExpectation {
  /** Virtual ms from the heal by which the goal must be reached (the agents' last end). */
  readonly withinMs: number;
  /** The most logical tool calls the agents may start at or after the heal (status queries excluded). */
  readonly maxCallsAfter?: number | undefined;
  /**
   * The longest an agent still running at the heal may go, after it, before its next request to
   * a service (or its end): a wait begun under the faults (a backoff, a Retry-After, an open
   * circuit breaker) that outlives them (default: `withinMs`).
   */
  readonly maxStaleWaitMs?: number | undefined;
}
