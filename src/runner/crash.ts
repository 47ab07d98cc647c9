import { sleepOn, type Clock, type TimerHandle, type Transport, type WireRequest, type ToolContract } from '../core/index.js';
import type { EffectLedger } from '../world/ledger.js';

/** When the agent process of a trial dies (R22, R25). */
export interface CrashPlan {
  /**
   * The process dies as soon as a call of this tool has committed an effect, before the
   * answer reaches the execution layer: the service did the work, and nobody recorded it.
   */
  readonly afterEffectOf: string;
}

/**
 * A process's view of time: the trial's clock until the process dies, and nothing after.
 * Its timers stop firing, so no timeout or backoff of the dead process wakes it up again.
 */
export class ProcessClock implements Clock {
  #dead = false;

  constructor(private readonly inner: Clock) {}

  get dead(): boolean {
    return this.#dead;
  }

  kill(): void {
    this.#dead = true;
  }

  now(): number {
    return this.inner.now();
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, ms, signal);
  }

  setTimer(ms: number, fn: () => void): TimerHandle {
    return this.inner.setTimer(ms, () => {
      if (!this.#dead) fn();
    });
  }

  clearTimer(handle: TimerHandle): void {
    this.inner.clearTimer(handle);
  }
}

/**
 * The dying process's transport. Once a call of the plan's tool has an effect in the ledger,
 * the process is killed and that send never settles: the service committed, the answer is
 * lost with the process, and every later send of the dead process hangs too.
 */
export class CrashTrap implements Transport {
  readonly tools: readonly ToolContract[];
  /** Settles when the process has died. */
  readonly crashed: Promise<{ readonly request: string }>;
  #die: (at: { readonly request: string }) => void = () => {};

  constructor(
    private readonly inner: Transport,
    private readonly plan: CrashPlan,
    private readonly ledger: EffectLedger,
    private readonly clock: ProcessClock,
  ) {
    this.tools = inner.tools;
    this.crashed = new Promise((resolve) => (this.#die = resolve));
  }

  async send(request: WireRequest, signal?: AbortSignal): Promise<unknown> {
    if (this.clock.dead) return never();
    const answer = this.inner.send(request, signal);
    if (request.purpose !== 'call' || request.tool !== this.plan.afterEffectOf) return answer;
    const settled = await answer.then(
      (value: unknown) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    if (this.clock.dead || this.ledger.effects.some((e) => e.request === request.request)) {
      this.clock.kill();
      this.#die({ request: request.request });
      return never();
    }
    if (settled.ok) return settled.value;
    throw settled.error;
  }
}

const never = (): Promise<never> => new Promise<never>(() => {});
