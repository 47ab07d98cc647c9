import { describe, expect, it } from 'vitest';
import { History, VirtualClock } from '../../core/index.js';
import { EffectLedger } from '../../world/ledger.js';
import { AgentKill } from './AgentKill.js';
import type { AgentCrashTrigger } from '../../scenario/agentCrash.js';

/** A kill over a ledger where `committed` requests have an effect, and the requests it held, in order. */
function answers(trigger: AgentCrashTrigger, requests: readonly [string, string][], committed: readonly string[]) {
  const clock = new VirtualClock(0);
  const ledger = new EffectLedger();
  for (const request of committed)
    ledger.commit({ at: 0, service: 'orders', effect: 'order.created', key: request, request, data: {} });
  const history = new History(clock);
  const kill = new AgentKill(trigger, ledger, history);
  const held = requests.filter(([request, tool]) => kill.holds({ request, tool })).map(([request]) => request);
  return { held, kill, events: history.events.filter((e) => e.type === 'agent_crash') };
}

const REQUESTS: [string, string][] = [
  ['http-1', 'find_order_by_reference'],
  ['http-2', 'create_order'],
  ['http-3', 'create_order'],
  ['http-4', 'create_order'],
];

describe('AgentKill: when a crash.agent trigger holds an answer and kills the agent', () => {
  it('afterEffectOf: the nth committed effect of the tool, never a call whose effect did not commit, and once', () => {
    // http-2 failed before its effect (none in the ledger): it is not the first effect.
    const { held, kill, events } = answers({ afterEffectOf: 'create_order', nth: 2 }, REQUESTS, ['http-3', 'http-4']);
    expect(held).toEqual(['http-4']);
    expect(kill.fired).toBe(true);
    expect(events).toMatchObject([
      {
        type: 'agent_crash',
        trigger: 'after effect #2 of create_order',
        request: 'http-4',
        tool: 'create_order',
        process: 1,
      },
    ]);
  });

  it('afterEffectOf without nth: the first', () => {
    expect(answers({ afterEffectOf: 'create_order' }, REQUESTS, ['http-2', 'http-3']).held).toEqual(['http-2']);
  });

  it('afterCall: the n-th tool request, whatever its tool, and only once', () => {
    const { held, events } = answers({ afterCall: 1 }, REQUESTS, []);
    expect(held).toEqual(['http-1']);
    expect(events).toHaveLength(1);
  });

  it('a trigger that never comes holds nothing and never fires', () => {
    const { held, kill } = answers({ afterCall: 9 }, REQUESTS, []);
    expect([held, kill.fired]).toEqual([[], false]);
  });

  it('atMs: fires on the clock at the trial start plus atMs, not before; disarmed, never', async () => {
    const clock = new VirtualClock(1_000);
    const history = new History(clock);
    const kill = new AgentKill({ atMs: 250 }, new EffectLedger(), history);
    kill.arm(clock, 1_000);
    await clock.run(() => clock.sleep(249));
    expect(kill.fired).toBe(false);
    await clock.run(() => clock.sleep(1));
    expect(kill.fired).toBe(true);
    expect(kill.signal.aborted).toBe(true);
    expect(history.events.at(-1)).toMatchObject({ type: 'agent_crash', trigger: 'at t=250ms', t: 250 });

    const other = new AgentKill({ atMs: 10 }, new EffectLedger(), history);
    other.arm(clock, 1_000);
    other.disarm(clock);
    await clock.run(() => clock.sleep(100));
    expect(other.fired).toBe(false);
    // A request answered meanwhile is not held by a time trigger.
    expect(other.holds({ request: 'http-1', tool: 'create_order' })).toBe(false);
  });
});
