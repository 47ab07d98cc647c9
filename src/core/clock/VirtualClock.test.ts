import { describe, expect, it } from 'vitest';
import { VirtualClock } from './VirtualClock.js';

describe('VirtualClock', () => {
  it('advances time only by sleeping, in timer order', async () => {
    const clock = new VirtualClock(1_000);
    const seen: string[] = [];
    const run = await clock.run(async () => {
      await Promise.all([
        clock.sleep(300).then(() => seen.push(`b@${clock.now()}`)),
        clock.sleep(100).then(() => seen.push(`a@${clock.now()}`)),
      ]);
      await clock.sleep(600_000);
      return clock.now();
    });
    expect(run).toEqual({ kind: 'settled', value: 601_300, at: 601_300 });
    expect(seen).toEqual(['a@1100', 'b@1300']);
  });

  it('fires timers set for the same instant in the order they were set', async () => {
    const clock = new VirtualClock();
    const seen: number[] = [];
    await clock.run(async () => {
      await Promise.all([1, 2, 3].map((n) => clock.sleep(50).then(() => seen.push(n))));
    });
    expect(seen).toEqual([1, 2, 3]);
  });

  it("lets each timer's continuation finish, however many awaits long, before the next timer fires", async () => {
    const clock = new VirtualClock();
    const seen: string[] = [];
    const long = async (): Promise<void> => {
      await clock.sleep(10);
      for (let i = 0; i < 500; i++) await Promise.resolve();
      seen.push('long done');
    };
    const short = async (): Promise<void> => {
      await clock.sleep(10);
      seen.push('short');
    };
    // Hundreds of turns too, so the run spans several batches of them.
    const many = async (): Promise<void> => {
      for (let i = 0; i < 300; i++) await clock.sleep(1);
      seen.push(`many done@${clock.now()}`);
    };
    await clock.run(() => Promise.all([long(), short(), many()]));
    expect(seen).toEqual(['long done', 'short', 'many done@300']);
  });

  it('leaves no immediate of its own pending once a run ends (a trial would count it as a timer left running)', async () => {
    const immediates = (): number => process.getActiveResourcesInfo().filter((t) => t === 'Immediate').length;
    const before = immediates();
    const clock = new VirtualClock();
    await clock.run(async () => {
      for (let i = 0; i < 100; i++) await clock.sleep(5);
    });
    expect(immediates()).toBe(before);
  });

  it('rejects the run with the error a timer callback throws', async () => {
    const clock = new VirtualClock();
    const boom = new Error('boom');
    const run = clock.run(async () => {
      clock.setTimer(5, () => {
        throw boom;
      });
      await clock.sleep(10);
    });
    await expect(run).rejects.toBe(boom);
  });

  it('reports a body awaiting a promise that never settles as hung, at the time it stalled', async () => {
    const clock = new VirtualClock();
    const run = await clock.run(async () => {
      await clock.sleep(5_000);
      await new Promise(() => {});
    });
    expect(run).toEqual({ kind: 'hung', at: 5_000 });
  });

  it('reports a throwing body as threw, sync or async', async () => {
    const clock = new VirtualClock();
    const boom = new Error('boom');
    expect(
      await clock.run(() => {
        throw boom;
      }),
    ).toEqual({ kind: 'threw', error: boom, at: 0 });
    expect(
      await clock.run(async () => {
        await clock.sleep(10);
        throw boom;
      }),
    ).toEqual({ kind: 'threw', error: boom, at: 10 });
  });

  it('stops a body that would sleep past the time limit', async () => {
    const clock = new VirtualClock();
    const run = await clock.run(
      async () => {
        for (;;) await clock.sleep(1_000);
      },
      { maxVirtualMs: 10_500 },
    );
    expect(run).toEqual({ kind: 'time_limit', at: 10_500 });
  });

  it('rejects an aborted sleep and forgets its timer', async () => {
    const clock = new VirtualClock();
    const ac = new AbortController();
    const run = await clock.run(async () => {
      const slept = clock.sleep(1_000, ac.signal).catch((e: unknown) => `aborted: ${String(e)}`);
      clock.setTimer(10, () => ac.abort('stop'));
      return slept;
    });
    expect(run).toEqual({ kind: 'settled', value: 'aborted: stop', at: 10 });
    expect(clock.pending).toBe(0);
  });
});

describe('VirtualClock guards', () => {
  it('ends a body that spins on zero-length sleeps as a livelock instead of running forever', async () => {
    const clock = new VirtualClock(0);
    const run = await clock.run(
      async () => {
        await clock.sleep(5);
        for (;;) await clock.sleep(0);
      },
      { maxFiresPerInstant: 1_000 },
    );
    expect(run).toEqual({ kind: 'livelock', at: 5 });
  });

  it('refuses a NaN delay, which would poison every later timestamp', async () => {
    const clock = new VirtualClock(0);
    const run = await clock.run(() => clock.sleep(Number.NaN));
    expect(run.kind).toBe('threw');
    expect(run.kind === 'threw' && (run.error as Error).message).toMatch(/NaN/);
    expect(clock.now()).toBe(0);
  });

  it("answers any delay it cannot use with a rejected promise, never a throw, at the same hop as a promise executor's throw", async () => {
    const clock = new VirtualClock(0);
    const odd: unknown[] = [
      Number.NaN,
      Symbol('ms'),
      10n,
      {
        valueOf: (): number => {
          throw new Error('no number');
        },
      },
    ];
    for (const ms of odd) {
      const order: string[] = [];
      let sleeping: Promise<unknown> | undefined;
      expect(() => (sleeping = clock.sleep(ms as number).catch(() => order.push('sleep')))).not.toThrow();
      // The executor form beside it, and a chain of ticks started after both: each rejection is handled a hop after it is made.
      const executorForm = new Promise<void>(() => {
        throw new Error('executor');
      }).catch(() => order.push('executor'));
      const tick = Promise.resolve()
        .then(() => order.push('tick1'))
        .then(() => order.push('tick2'));
      await Promise.all([sleeping, executorForm, tick]);
      expect(order).toEqual(['sleep', 'executor', 'tick1', 'tick2']);
    }
    expect(clock.pending).toBe(0);
  });
});

describe('VirtualClock.hold', () => {
  it('keeps time still while real work is in flight, then carries on', async () => {
    const clock = new VirtualClock(0);
    const seen: string[] = [];
    const run = await clock.run(async () => {
      const timer = clock.sleep(1_000).then(() => seen.push(`timer@${clock.now()}`));
      // Real I/O: completes on a later turn of the event loop, not in the microtask queue.
      const io = clock.hold(new Promise<string>((resolve) => setTimeout(() => resolve('row'), 20)));
      seen.push(`io:${await io}@${clock.now()}`);
      await timer;
      return clock.inflight;
    });
    expect(seen).toEqual(['io:row@0', 'timer@1000']);
    expect(run).toEqual({ kind: 'settled', value: 0, at: 1_000 });
  });

  it('does not call a body hung while it waits on real work', async () => {
    const clock = new VirtualClock(0);
    const run = await clock.run(() => clock.hold(new Promise<number>((resolve) => setTimeout(() => resolve(7), 30))));
    expect(run).toEqual({ kind: 'settled', value: 7, at: 0 });
  });

  it('fires the timers left after most were cleared in (time, order set), as if none had been', async () => {
    const clock = new VirtualClock(0);
    const fired: number[] = [];
    const expected: number[] = [];
    const run = await clock.run(async () => {
      // Many timers cleared at once (the heap is rebuilt from the live ones), some at equal times.
      const handles = Array.from({ length: 400 }, (_, i) => clock.setTimer((i * 37) % 50, () => fired.push(i)));
      handles.forEach((h, i) => {
        if (i % 7 !== 0) clock.clearTimer(h);
      });
      for (let i = 0; i < 400; i += 7) expected.push(i);
      expected.sort((a, b) => ((a * 37) % 50) - ((b * 37) % 50) || a - b);
      expect(clock.pending).toBe(expected.length);
      await clock.sleep(100);
    });
    expect(run.kind).toBe('settled');
    expect(fired).toEqual(expected);
  });

  it('takes the turns asked at one instant by what asked (the fire, then the lane), whatever hops came first', async () => {
    const clock = new VirtualClock();
    const seen: string[] = [];
    const hops = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) await Promise.resolve();
    };
    const agent = async (lane: number, hopsFirst: number): Promise<void> => {
      await hops(hopsFirst);
      await clock.nextTurn(lane);
      seen.push(`lane ${lane} at ${clock.now()}`);
      // Asked in the work of the turn just taken: after every turn the body asked for.
      await clock.nextTurn(-1);
      seen.push(`lane ${lane} again`);
    };
    const run = await clock.run(async () => {
      await clock.sleep(5);
      await Promise.all([agent(2, 0), agent(0, 7), agent(1, 3)]);
    });
    expect(run.kind).toBe('settled');
    expect(seen).toEqual(['lane 0 at 5', 'lane 1 at 5', 'lane 2 at 5', 'lane 0 again', 'lane 1 again', 'lane 2 again']);
  });

  it('takes a turn while real work is in flight, and time stays where it is', async () => {
    const clock = new VirtualClock();
    let release!: () => void;
    const run = await clock.run(async () => {
      const work = clock.hold(new Promise<void>((resolve) => (release = resolve)));
      const timer = clock.sleep(1).then(() => 'timer');
      const turn = clock.nextTurn(0).then(() => `turn at ${clock.now()}, held ${clock.inflight}`);
      const first = await Promise.race([timer, turn]);
      release();
      await work;
      await timer;
      return first;
    });
    expect(run).toEqual({ kind: 'settled', value: 'turn at 0, held 1', at: 1 });
  });
});
