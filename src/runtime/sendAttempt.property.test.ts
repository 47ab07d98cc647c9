import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  TimeoutError,
  VirtualClock,
  type Clock,
  type TimerHandle,
  type Transport,
  type WireRequest,
} from '../core/index.js';
import { callRequest } from './fakeTransport.testkit.js';
import { sendAttempt, type AttemptResult } from './sendAttempt.js';
import { SignalPool } from './SignalPool.js';

/** `sendAttempt` as it was written when a refusal rejected its race and was thrown into it: the law the new form keeps. */
async function asyncSendAttempt(
  transport: Transport,
  clock: Clock,
  request: WireRequest,
  timeoutMs: number | undefined,
  signals?: SignalPool,
): Promise<AttemptResult> {
  const pool = transport.releasesSignal === true ? signals : undefined;
  const lent = pool?.take();
  const controller = lent ?? new AbortController();
  let stop: ((reason: unknown) => void) | undefined;
  const timer =
    timeoutMs === undefined
      ? undefined
      : clock.setTimer(timeoutMs, () => {
          const reason = new TimeoutError(timeoutMs);
          const reject = stop;
          if (reject) queueMicrotask(() => reject(reason));
          controller.abort(reason);
        });
  try {
    const sending = transport.send(request, controller.signal);
    const value = await new Promise<unknown>((resolve, reject) => {
      stop = reject;
      void Promise.resolve(sending).then(resolve, reject);
    });
    return { kind: 'ok', value };
  } catch (error) {
    return { kind: 'error', error };
  } finally {
    if (timer !== undefined) clock.clearTimer(timer);
    if (lent) pool?.give(lent);
  }
}

/** How the transport answers: after some microtask hops, after virtual time, never (until aborted), or by throwing at once. */
type Answer =
  | { readonly kind: 'value' | 'reject' | 'rejectedLater' | 'thenable'; readonly hops: number }
  | { readonly kind: 'sleep'; readonly ms: number; readonly reject: boolean }
  | { readonly kind: 'hang'; readonly abortHops: number; readonly listens: boolean }
  | { readonly kind: 'throw' };

const answerArb: fc.Arbitrary<Answer> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('value' as const, 'reject' as const, 'rejectedLater' as const, 'thenable' as const),
    hops: fc.nat(4),
  }),
  fc.record({ kind: fc.constant('sleep' as const), ms: fc.nat(12), reject: fc.boolean() }),
  fc.record({ kind: fc.constant('hang' as const), abortHops: fc.nat(4), listens: fc.boolean() }),
  fc.constant({ kind: 'throw' as const }),
);

const hopsThen = <T>(hops: number, log: string[], label: string, end: () => T | PromiseLike<T>): Promise<T> => {
  let chain: Promise<void> = Promise.resolve();
  for (let i = 1; i <= hops; i++) chain = chain.then(() => void log.push(`${label} hop ${i}`));
  return chain.then(end);
};

function transportFor(answer: Answer, clock: Clock, log: string[], releasesSignal: boolean): Transport {
  return {
    tools: [],
    releasesSignal,
    send: (req, signal) => {
      const n = req.attempt;
      switch (answer.kind) {
        case 'value':
          return hopsThen(answer.hops, log, `answer ${n}`, () => `value ${n}`);
        case 'reject':
          return hopsThen(answer.hops, log, `answer ${n}`, () => Promise.reject(new Error(`refused ${n}`)));
        case 'rejectedLater':
          // As the wire answers a refusal: an async function returning a thenable that rejects a job later.
          return (async () => {
            await hopsThen(answer.hops, log, `answer ${n}`, () => undefined);
            return {
              then: (_: unknown, onRejected?: (e: Error) => void) =>
                queueMicrotask(() => onRejected?.(new Error(`refused ${n}`))),
            } as unknown as Promise<never>;
          })();
        case 'thenable':
          return {
            then: (onFulfilled: (v: unknown) => void) =>
              void hopsThen(answer.hops, log, `answer ${n}`, () => onFulfilled(`thenable ${n}`)),
          } as unknown as Promise<unknown>;
        case 'sleep':
          return clock.sleep(answer.ms).then(() => {
            log.push(`answer ${n} slept`);
            if (answer.reject) throw new Error(`refused ${n}`);
            return `slept ${n}`;
          });
        case 'hang':
          return new Promise((_, reject) => {
            if (!answer.listens) return;
            signal?.addEventListener(
              'abort',
              () => void hopsThen(answer.abortHops, log, `abort ${n}`, () => reject(signal.reason as Error)),
              { once: true },
            );
          });
        case 'throw':
          throw new Error(`thrown ${n}`);
      }
    },
  };
}

const show = (r: AttemptResult): string =>
  r.kind === 'ok' ? `ok ${String(r.value)}` : `error ${(r.error as Error).name}: ${(r.error as Error).message}`;

/** Two sends in a row beside a ticking chain and a timer of its own: everything each form lets happen, in order. */
async function trace(
  send: typeof sendAttempt,
  answer: Answer,
  timeoutMs: number | undefined,
  ticks: number,
  releasesSignal: boolean,
): Promise<string[]> {
  const clock = new VirtualClock(0);
  const log: string[] = [];
  const pool = new SignalPool();
  const t = transportFor(answer, clock, log, releasesSignal);
  const signals: AbortSignal[] = [];
  const sender: Transport = {
    tools: [],
    releasesSignal,
    send: (req, signal) => (signals.push(signal!), t.send(req, signal)),
  };
  const run = await clock.run(
    async () => {
      for (const attempt of [1, 2]) {
        const req = callRequest(attempt);
        void hopsThen(ticks, log, `tick ${attempt}`, () => undefined);
        clock.setTimer(timeoutMs ?? 5, () => void hopsThen(ticks, log, `timer ${attempt}`, () => undefined));
        const result = await send(sender, clock, req, timeoutMs, pool);
        log.push(`resumed ${attempt} at ${clock.now()}: ${show(result)}`);
      }
      await clock.sleep(20);
    },
    { maxVirtualMs: 1_000 },
  );
  log.push(
    `run ${run.kind} at ${run.at}`,
    `same signal again: ${signals[1] === signals[0]}`,
    `aborted: ${signals.map((s) => s.aborted).join(',')}`,
  );
  return log;
}

/** A clock whose timers fire when a microtask asks (as fake timers ticked from async test code do), not in a turn of their own. */
class TickedClock implements Clock {
  readonly #timers = new Map<number, () => void>();
  #id = 0;
  now(): number {
    return 0;
  }
  sleep(): Promise<void> {
    return new Promise(() => {});
  }
  setTimer(_ms: number, fn: () => void): TimerHandle {
    this.#timers.set(++this.#id, fn);
    return this.#id as TimerHandle;
  }
  clearTimer(handle: TimerHandle): void {
    this.#timers.delete(handle);
  }
  tick(): void {
    for (const [id, fn] of [...this.#timers]) {
      this.#timers.delete(id);
      fn();
    }
  }
}

/** One send whose timeout a microtask chain fires after `tickAfter` hops, racing an answer `hops` hops away. */
async function ticked(
  send: typeof sendAttempt,
  answer: Answer & { kind: 'value' | 'reject' | 'hang' },
  tickAfter: number,
): Promise<string[]> {
  const clock = new TickedClock();
  const log: string[] = [];
  const t = transportFor(answer, clock, log, true);
  const req = callRequest(1);
  void hopsThen(tickAfter, log, 'tick', () => {
    log.push('timers fired');
    clock.tick();
  });
  const result = await send(t, clock, req, 10, new SignalPool());
  log.push(`resumed: ${show(result)}`);
  await hopsThen(12, log, 'after', () => undefined);
  return log;
}

describe('sendAttempt', () => {
  it('decides the race where the async form did, when a timeout fires from a microtask', async () => {
    const answer = fc.oneof(
      fc.record({ kind: fc.constantFrom('value' as const, 'reject' as const), hops: fc.nat(4) }),
      fc.record({ kind: fc.constant('hang' as const), abortHops: fc.nat(4), listens: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(answer, fc.nat(8), async (a, tickAfter) => {
        expect(await ticked(sendAttempt, a, tickAfter)).toEqual(await ticked(asyncSendAttempt, a, tickAfter));
      }),
      { numRuns: 200 },
    );
  });

  it('lets everything around it happen in the order the async form did, with the same results and signal reuse', async () => {
    await fc.assert(
      fc.asyncProperty(
        answerArb,
        fc.option(fc.nat(10), { nil: undefined }),
        fc.nat(5),
        fc.boolean(),
        async (answer, timeoutMs, ticks, releases) => {
          expect(await trace(sendAttempt, answer, timeoutMs, ticks, releases)).toEqual(
            await trace(asyncSendAttempt, answer, timeoutMs, ticks, releases),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
