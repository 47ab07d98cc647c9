import type { Clock, History, TimerHandle } from '../../core/index.js';
import type { AnswerGate } from '../../faults/http/AnswerGate.js';
import { triggerText, type AgentCrashTrigger } from '../../scenario/agentCrash.js';
import type { EffectLedger } from '../../world/ledger.js';

/**
 * A scenario's `crash.agent` for one trial: the served world's answer gate, which holds the
 * answer the trigger names (an effect of the tool committed, or the n-th tool request) and kills
 * the agent then, or a timer that kills it at `atMs`. It fires once per trial: the restarted
 * agent is not killed again. `signal` aborts when it fires; the caller kills the process with it.
 */
export class AgentKill implements AnswerGate {
  readonly #controller = new AbortController();
  #requests = 0;
  #effects = 0;
  #timer: TimerHandle | undefined;

  constructor(
    private readonly trigger: AgentCrashTrigger,
    private readonly ledger: EffectLedger,
    private readonly history: History,
  ) {}

  /** Aborted when the agent is to die now. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get fired(): boolean {
    return this.#controller.signal.aborted;
  }

  holds({ request, tool }: { readonly request: string; readonly tool: string }): boolean {
    if (this.fired) return false;
    const { afterEffectOf, afterCall, nth = 1 } = this.trigger;
    if (afterCall !== undefined && ++this.#requests < afterCall) return false;
    if (afterEffectOf !== undefined) {
      // Only a committed effect counts: the trigger is the window "the service did it, the agent never heard" (R25).
      if (tool !== afterEffectOf || !this.ledger.effects.some((e) => e.request === request)) return false;
      if (++this.#effects < nth) return false;
    }
    if (afterCall === undefined && afterEffectOf === undefined) return false;
    this.#fire({ request, tool });
    return true;
  }

  /** For an `atMs` trigger: kills the agent when the trial's clock reaches it (`startMs` + `atMs`). */
  arm(clock: Clock, startMs: number): void {
    const at = this.trigger.atMs;
    if (at === undefined || this.fired) return;
    this.#timer = clock.setTimer(Math.max(0, startMs + at - clock.now()), () => this.#fire({}));
  }

  /** Stops the `atMs` timer: the first start ended before it fired. */
  disarm(clock: Clock): void {
    if (this.#timer !== undefined) clock.clearTimer(this.#timer);
    this.#timer = undefined;
  }

  #fire(at: { readonly request?: string; readonly tool?: string }): void {
    this.history.record({ type: 'agent_crash', trigger: triggerText(this.trigger), process: 1, ...at });
    this.#controller.abort(new Error(`crash.agent: ${triggerText(this.trigger)}`));
  }
}
