import {
  sleepOn,
  type Clock,
  type Rng,
  type TimerHandle,
  type Transport,
  type WireRequest,
  type ToolContract,
} from '../core/index.js';
import type { EffectLedger } from '../world/ledger.js';
import type { LoopEnd } from '../agent/loop.js';
import { Executor } from '../runtime/Executor.js';
import { InMemoryOperationStore } from '../runtime/idempotency/InMemoryOperationStore.js';
import type { OperationStore } from '../runtime/idempotency/OperationStore.js';
import type { ToolExecutor } from '../runtime/ToolExecutor.js';
import { CallCap } from './CallCap.js';

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

  /** The trial clock's turn, which a dead process never takes. */
  nextTurn(lane: number): Promise<void> {
    const turn = this.inner.nextTurn?.(lane) ?? Promise.resolve();
    return turn.then(() => (this.#dead ? new Promise<void>(() => {}) : undefined));
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

/** What a crashed trial needs from `runTrial`: its transport, ledger, clock, store, and how it builds executors and agents. */
export interface CrashRun {
  readonly transport: Transport;
  readonly ledger: EffectLedger;
  readonly clock: Clock;
  readonly durable: OperationStore | undefined;
  /** The configuration's execution layer; only the reference runtime's keeps operation records and can resume. */
  readonly executorFor: (
    t: Transport,
    c: Clock,
    rng: Rng,
    store: OperationStore | undefined,
    budget?: Executor['budget'],
  ) => Promise<ToolExecutor>;
  readonly startAgent: (executor: ToolExecutor, clock: Clock, caller?: string) => Promise<LoopEnd>;
  readonly rng: Rng;
  readonly caps: CallCap[];
  readonly callLimit: number;
}

/**
 * Two agent processes in one trial. The first runs until the crash plan kills it (its clock
 * and transport go dead, its pending call never returns); the second starts from nothing but
 * the durable store (a fresh in-memory one if the backend has none), resumes from the records
 * it finds, and runs the same agent from the start. Its calls carry `caller: process-2`.
 * A library configuration (cockatiel, p-retry) keeps no records: its second process starts
 * blank, as an application built on that library would, and the checkers judge what follows.
 */
export async function runWithCrash(plan: CrashPlan, r: CrashRun): Promise<LoopEnd> {
  const first = new ProcessClock(r.clock);
  const trap = new CrashTrap(r.transport, plan, r.ledger, first);
  const executor1 = await r.executorFor(trap, first, r.rng.fork('runtime'), r.durable ?? new InMemoryOperationStore());
  const capped1 = new CallCap(executor1, r.callLimit, first);
  r.caps.push(capped1);
  const ended = await Promise.race([
    r.startAgent(capped1, first, 'process-1').then((end) => ({ kind: 'ended' as const, end })),
    trap.crashed.then(() => ({ kind: 'crashed' as const })),
  ]);
  if (ended.kind === 'ended') return ended.end;
  // A fresh process: new memory, new keys; only what the durable store kept survives.
  const budget = executor1 instanceof Executor ? executor1.budget : undefined;
  const executor2 = await r.executorFor(
    r.transport,
    r.clock,
    r.rng.fork('runtime:restart'),
    r.durable ?? new InMemoryOperationStore(),
    budget,
  );
  if (executor2 instanceof Executor) await executor2.resume({ caller: 'process-2' });
  const capped2 = new CallCap(executor2, r.callLimit, r.clock);
  r.caps.push(capped2);
  return r.startAgent(capped2, r.clock, 'process-2');
}
