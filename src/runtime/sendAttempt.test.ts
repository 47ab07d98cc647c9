import { describe, expect, it } from 'vitest';
import { TimeoutError, VirtualClock, type Transport, type WireRequest } from '../core/index.js';
import { callRequest } from './fakeTransport.testkit.js';
import { sendAttempt } from './sendAttempt.js';
import { SignalPool } from './SignalPool.js';

const request = callRequest;

/** A transport that records each send's signal and answers as `answer` says. */
function transport(
  answer: (signal: AbortSignal) => Promise<unknown>,
  releasesSignal: boolean,
): Transport & { signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  return {
    tools: [],
    releasesSignal,
    signals,
    send: (_request, signal) => {
      signals.push(signal!);
      return answer(signal!);
    },
  };
}

/** Two sends in a row through one pool, on a fresh clock: the signals the transport was handed. */
async function sentTwice(
  t: Transport & { signals: AbortSignal[] },
  timeoutMs: number,
  pool: SignalPool,
): Promise<readonly [AbortSignal, AbortSignal]> {
  const clock = new VirtualClock(0);
  await clock.run(async () => {
    await sendAttempt(t, clock, request(1), timeoutMs, pool);
    await sendAttempt(t, clock, request(2), timeoutMs, pool);
  });
  return [t.signals[0]!, t.signals[1]!];
}

describe('sendAttempt', () => {
  it('rejects, never throws, when it cannot even set its timer (as the async form did)', async () => {
    const clock = new VirtualClock(0);
    let sent = 0;
    const t = transport(async () => (sent++, 'pong'), false);
    let promise: Promise<unknown> | undefined;
    expect(() => (promise = sendAttempt(t, clock, request(1), Number.NaN))).not.toThrow();
    await expect(promise).rejects.toThrow(RangeError);
    expect(sent).toBe(0);
  });

  it('answers with the value, or times out with TimeoutError and aborts the signal', async () => {
    const clock = new VirtualClock(0);
    const ok = await clock.run(() =>
      sendAttempt(
        transport(async () => 'pong', false),
        clock,
        request(1),
        1_000,
      ),
    );
    expect(ok).toMatchObject({ kind: 'settled', value: { kind: 'ok', value: 'pong' } });
    const silent = transport(() => new Promise(() => {}), false);
    const late = await clock.run(() => sendAttempt(silent, clock, request(1), 1_000));
    expect(late.kind === 'settled' && late.value.kind === 'error' && late.value.error).toBeInstanceOf(TimeoutError);
    expect(silent.signals[0]!.aborted).toBe(true);
  });

  it('keeps the microtask hops of a race against an abort listener: concurrent work interleaves with a timeout as it did', async () => {
    // The shape sendAttempt had: Promise.race against a promise rejected by its own abort listener.
    async function raced(t: Transport, clock: VirtualClock, req: WireRequest, timeoutMs: number): Promise<unknown> {
      const controller = new AbortController();
      const timer = clock.setTimer(timeoutMs, () => controller.abort(new TimeoutError(timeoutMs)));
      const aborted = new Promise<never>((_, reject) =>
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true }),
      );
      try {
        return await Promise.race([t.send(req, controller.signal), aborted]);
      } catch (error) {
        return error;
      } finally {
        clock.clearTimer(timer);
      }
    }
    const orderOf = async (send: typeof raced, hops: number): Promise<string[]> => {
      const clock = new VirtualClock(0);
      const order: string[] = [];
      // The transport's own listener starts a chain of `hops` reactions, as a wire's abort handling does.
      const t = transport(
        (signal) =>
          new Promise((_, reject) =>
            signal.addEventListener('abort', () => {
              let chain = Promise.resolve();
              for (let i = 1; i <= hops; i++) chain = chain.then(() => void order.push(`transport hop ${i}`));
              reject(signal.reason as Error);
            }),
          ),
        false,
      );
      await clock.run(async () => {
        await send(t, clock, request(1), 10);
        order.push('caller resumed');
      });
      return order;
    };
    for (let hops = 0; hops <= 6; hops++)
      expect(await orderOf(sendAttempt, hops), `${hops} hops`).toEqual(await orderOf(raced, hops));
  });

  it('hands a transport that lets go of its signal the same one again, never one that fired or still has a listener', async () => {
    const pool = new SignalPool();
    const [first, again] = await sentTwice(
      transport(async () => 'ok', true),
      1_000,
      pool,
    );
    expect(again).toBe(first);

    const [timedOut, fresh] = await sentTwice(
      transport(() => new Promise(() => {}), true),
      10,
      pool,
    );
    expect(fresh).not.toBe(timedOut);
    expect(fresh.aborted).toBe(true);

    const listening = transport((signal) => {
      signal.addEventListener('abort', () => {});
      return Promise.resolve('ok');
    }, true);
    const [listened, next] = await sentTwice(listening, 1_000, pool);
    expect(next).not.toBe(listened);
  });

  it('gives a transport that keeps its signal a fresh one every time', async () => {
    const [first, second] = await sentTwice(
      transport(async () => 'ok', false),
      1_000,
      new SignalPool(),
    );
    expect(second).not.toBe(first);
  });
});
