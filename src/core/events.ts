import type { AgentOutcomeKind, CallResultKind, ErrorKind, Risk } from './kinds.js';
import type { OpenTaskState } from './openTask.js';

/** An error as it is kept in the history: plain data, never a live Error. */
export interface ErrorData {
  readonly kind: ErrorKind;
  readonly message: string;
  readonly retryable: boolean;
  readonly status?: number;
  readonly code?: string;
  /** The server's wait hint, resolved to milliseconds from the moment it was received. */
  readonly retryAfterMs?: number;
}

/** Tokens one model answer reports: prompt (`input`) and completion (`output`). */
export interface ModelUsage {
  readonly input: number;
  readonly output: number;
  /** Of `input`, the tokens read from the provider's prompt cache (priced lower); absent when none. */
  readonly cached?: number;
}

/**
 * Who made a claim or reported an outcome: the agent's own code (the default, and then the field
 * is left out), or the scenario's stand-in model, whose final answer an agent on an LLM SDK
 * passed on as its own.
 */
export type ClaimBy = 'agent' | 'stand-in';

/** What an agent asserts about one subject when it stops (R29: checked against the world). */
export interface Claim {
  /** `service:businessKey`, as the ledger names effects: `orders:ref-42`, `email:welcome-1`. */
  readonly subject: string;
  readonly status: 'succeeded' | 'failed' | 'unknown';
  readonly note?: string;
  /** `stand-in`: the stand-in model's final answer made this claim (absent: the agent's code did). */
  readonly by?: ClaimBy;
}

/** Fault descriptions are data from `faults/`; the core only needs their tag. */
export type FaultData = { readonly kind: string } & Readonly<Record<string, unknown>>;

/** The ids that tie one event to its place in the trial. */
export interface Correlation {
  readonly turn?: number;
  readonly call?: string;
  readonly attempt?: number;
  readonly op?: string;
  readonly request?: string;
  /** Which agent of a many-agent trial the event belongs to (`agent-3`); absent with one agent. */
  readonly caller?: string;
}

/** Set by the HTTP adapters (msw, nock): the request as it went over the network. */
export interface HttpFields {
  readonly method?: string;
  readonly url?: string;
  /** The `Idempotency-Key` header, when the client sent one. */
  readonly idempotencyKey?: string;
}

/** The fields of an `http_request` event. */
export interface HttpRequestFields {
  readonly request: string;
  /** The route's operation, as a fault plan's `match.tool` names it. */
  readonly tool: string;
  readonly kind: 'tool' | 'model';
  readonly purpose: 'call' | 'status';
  readonly call: string;
  readonly attempt: number;
  /** The nth logical call of the operation (a plan's `match.call`). */
  readonly callNumber: number;
  /**
   * The rule that tied it to its call: `header` (`x-faultline-call`), `key` (a repeated
   * `Idempotency-Key`), `sdk` (`x-stainless-retry-count` above 0), `status` (a status query
   * joins the operation's latest call), `repeat` (same method, URL and body, window open),
   * `new` (none: new work).
   */
  readonly groupedBy: 'header' | 'key' | 'sdk' | 'status' | 'repeat' | 'new';
  readonly method: string;
  readonly url: string;
  readonly idempotencyKey?: string;
  /** sha-256 (16 hex digits) of the body's canonical form: JSON and forms by value, any other body by its text. */
  readonly bodyDigest: string;
  readonly risk?: Risk;
  readonly honoursKeys?: boolean;
  readonly clientCall?: string;
  /** The `x-stainless-retry-count` header (the OpenAI and Anthropic SDKs number their own retries in it), when sent: who resent it. */
  readonly sdkRetryCount?: number;
  /**
   * For a model request, the framework its `User-Agent` names (`LangChain.js`, `AI SDK`,
   * `OpenAI Agents SDK`), when it names one: the layer that built the client, and so the one
   * whose retries a resend with no SDK retry count may be.
   */
  readonly framework?: string;
}

/** The network legs one request travelled, drawn from the scenario's `network` latency. */
export interface NetworkLegs {
  readonly request: number;
  readonly response?: number;
}

type E<T extends string, P> = { readonly seq: number; readonly t: number; readonly type: T } & Correlation & P;

export type HistoryEvent =
  | E<
      'trial_start',
      {
        scenario: string;
        config: string;
        trialIndex: number;
        seed: number;
        startMs: number;
        /** Set when the trial ran on the wall clock (a `command` agent): timing-dependent choices may differ on replay. */ clock?: 'real';
      }
    >
  | E<
      'model_turn',
      {
        turn: number;
        action: 'tool_calls' | 'final' | 'wait';
        calls?: readonly { call: string; tool: string; input: unknown }[];
        waitMs?: number;
      }
    >
  | E<'model_error', { error: ErrorData }>
  /** `honoursKeys`: the tool's service replays results for a reused idempotency key, as its contract says (R24). */
  /** `businessKey`: the input's business request id, read from the field the tool's contract names (R21, R22). */
  | E<
      'tool_call',
      { call: string; tool: string; risk: Risk; honoursKeys: boolean; input: unknown; businessKey?: string }
    >
  /** One agent of a many-agent trial starts, `startMs` after the trial's start (its arrival). */
  | E<'agent_start', { caller: string; agent: number; startMs: number }>
  | E<
      'operation',
      {
        op: string;
        call: string;
        tool: string;
        state: 'recorded' | 'unknown' | 'succeeded' | 'failed';
        idempotencyKey?: string;
        businessKey?: string;
      }
    >
  | E<
      'attempt',
      {
        call: string;
        attempt: number;
        tool: string;
        purpose: 'call' | 'status';
        request: string;
        idempotencyKey?: string;
      }
    >
  | E<'fault', { request: string; tool: string; rule: number; fault: FaultData } & HttpFields>
  /**
   * A fault that looks like success (`stale`, `empty`, `truncated`, `wrong_value`) answered a
   * delivery 2xx with something other than the truth: `held` is what the service answered as
   * the world stood, `answered` what the caller got; `asOf` is the time a stale read saw the world as of (virtual ms
   * since the trial began, as `t`).
   */
  | E<
      'lie',
      {
        request: string;
        tool: string;
        purpose: 'call' | 'status';
        fault: FaultData;
        held: unknown;
        answered: unknown;
        asOf?: number;
      } & HttpFields
    >
  | E<'delivery', { request: string; tool: string; copy: number; idempotencyKey?: string } & HttpFields>
  | E<
      'effect',
      {
        request: string;
        service: string;
        effect: string;
        key: string;
        ledgerSeq: number;
        idempotencyKey?: string;
      } & HttpFields
    >
  /**
   * An HTTP answer (or none) as the client got it. From the HTTP adapters, a failure also
   * carries its class (`errorKind`, as `errorDataOf` reads the status and body) and the
   * server's wait hint: `retryAfter` as the header said it, `retryAfterMs` resolved (R9).
   */
  | E<
      'response',
      {
        request: string;
        tool: string;
        result: 'ok' | 'error' | 'lost';
        status?: number;
        message?: string;
        errorKind?: ErrorKind;
        retryAfter?: string;
        retryAfterMs?: number;
        /** A model answer's token counts, from its `usage` field (R31). */
        usage?: ModelUsage;
        /** A streamed answer: how many of its `of` server-sent events the client got before it ended (whole, cut, stalled, malformed). */
        stream?: { events: number; of: number };
        /**
         * With a scenario `network`: the virtual ms the request took to reach the service, and the
         * answer to come back (absent when no answer was sent: a timeout fault, a lost partial write).
         */
        legs?: NetworkLegs;
      } & HttpFields
    >
  /**
   * One request as it arrived at a faulted HTTP service, before any fault: whoever sent it
   * (the user's fetch, an SDK, faultline's executor), so checkers see every attempt with its
   * time. `call`/`attempt` are the logical call and attempt the wire derived (see
   * `CallTracker`), `groupedBy` the rule that tied it; `clientCall` the `x-faultline-call`
   * header, the caller's own id for the call. `risk` and `honoursKeys` when the route knows
   * its tool's contract.
   */
  | E<'http_request', HttpRequestFields>
  | E<
      'attempt_end',
      {
        call: string;
        attempt: number;
        purpose: 'call' | 'status';
        request: string;
        result: 'ok' | 'error';
        error?: ErrorData;
      }
    >
  | E<'retry_wait', { call: string; attempt: number; ms: number; reason: 'backoff' | 'retry_after' }>
  | E<'give_up', { call: string; reason: GiveUpReason; error?: ErrorData }>
  /** `task`: the answer found is a long task taken on (R20), not its final result. */
  | E<
      'reconcile',
      {
        call: string;
        op: string;
        found: 'succeeded' | 'failed' | 'pending' | 'not_found' | 'error';
        task?: OpenTaskState;
      }
    >
  /** `task`: an ok answer that reports a long task taken on (R20), not its final result. */
  | E<
      'outcome',
      {
        call: string;
        tool: string;
        result: CallResultKind;
        attempts: number;
        error?: ErrorData;
        op?: string;
        task?: OpenTaskState;
      }
    >
  | E<'feedback', { call: string; format: string; isError: boolean; text: string }>
  | E<'agent_wait', { ms: number }>
  /** A request that bypassed interception (a client holding the `fetch` it found before the trial): refused, never sent. */
  | E<'escape', { method: string; url: string }>
  /**
   * A request the interceptor took that no route of the trial serves (a wrong base URL, a
   * path the service does not have), refused under the `error` unhandled-request policy.
   * `served`: what the trial serves at that origin (`POST https://api.openai.com/v1/chat/completions (model:openai.chat.completions)`),
   * or, when nothing is served there, the origins it serves.
   */
  | E<'unserved_request', { method: string; url: string; served: readonly string[]; servedHere: boolean }>
  /**
   * A command tool started a local process (R19). `command` is the trial's handle for it
   * (`cmd-1`, …): pids differ from run to run, so they stay out of the history.
   */
  | E<'command_start', { command: string; service: string; argv: readonly string[]; request?: string }>
  /**
   * How it ended: `exited` by itself, `timed_out` (the timeout fired; the group was sent SIGTERM,
   * and SIGKILL after the grace period if it had not gone), or `spawn_failed`. Output is bounded.
   */
  | E<
      'command_end',
      {
        command: string;
        result: CommandResultKind;
        exitCode: number | null;
        signal: string | null;
        stdout: string;
        stderr: string;
        timeoutMs?: number;
        killedWith?: 'SIGTERM' | 'SIGKILL';
        truncated?: boolean;
        message?: string;
      }
    >
  /** At the trial's end, a process group a command started was still alive (it is killed then). */
  | E<
      'process_left',
      {
        command: string;
        argv: readonly string[];
        /** Program names of processes it started that had left its group (a `setsid`), found alive. */ escaped?: readonly string[];
      }
    >
  /**
   * The scenario's `crash.agent` killed the user's agent (its process tree got SIGKILL, or its run was abandoned).
   * `request`: the tool request whose answer it never got (its effect, if any, committed); `process`: which start died (1: the first).
   */
  | E<'agent_crash', { trigger: string; process: number; request?: string; tool?: string }>
  /** The agent started again after a crash, with the same task, working folder and world: `restart` counts from 1. */
  | E<'agent_restart', { restart: number }>
  /** A write to the trial's key-value checkpoint store (`ctx.kv`, `FAULTLINE_KV_URL`): kept state, not a tool effect. */
  | E<'kv', { op: 'set' | 'delete'; key: string; value?: string }>
  /** `by: 'stand-in'`: the outcome and message are the stand-in model's final answer, passed on (absent: the agent's own). */
  | E<'agent_end', { outcome: AgentOutcomeKind; claims: readonly Claim[]; message: string; by?: ClaimBy }>
  /**
   * The scenario's `heal` instant: from here on no fault rule matches. Recorded once the trial
   * reaches it (a trial that ends earlier has none); `rules` is the size of the plan it ended.
   */
  | E<'heal', { rules: number }>
  | E<'trial_end', { status: string; message?: string }>;

export type HistoryEventType = HistoryEvent['type'];
export type EventOf<T extends HistoryEventType> = Extract<HistoryEvent, { type: T }>;

/** How a local command ended (R19). */
export type CommandResultKind = 'exited' | 'timed_out' | 'spawn_failed';

/** Why the execution layer stopped retrying a call. */
export type GiveUpReason =
  | 'not_retryable'
  | 'max_attempts'
  | 'deadline'
  | 'retry_after_exceeds_deadline'
  | 'budget'
  | 'write_without_key'
  /** The tool's client already retried this error below us: retry at one layer only (R10). */
  | 'retried_by_client'
  /** The client's own retry quota or retry ratio (a client-wide budget) refused the retry. */
  | 'client_budget'
  /** The client's adaptive throttling rejected the send locally: nothing left, and the call is not retried. */
  | 'client_throttled'
  | 'aborted';

/** An event before the history stamps it. */
export type NewEvent = HistoryEvent extends infer X ? (X extends HistoryEvent ? Omit<X, 'seq' | 't'> : never) : never;
