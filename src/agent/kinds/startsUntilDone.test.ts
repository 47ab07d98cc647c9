import { describe, expect, it } from 'vitest';
import { History, RealClock } from '../../core/index.js';
import { EffectLedger } from '../../world/ledger.js';
import { ProcessTable } from '../../world/command/ProcessTable.js';
import { AgentKill } from './AgentKill.js';
import { startsUntilDone, type Start } from './startsUntilDone.js';

describe('startsUntilDone: a crash.agent atMs timer against an agent that already exited', () => {
  it('an agent whose grandchild holds its pipes past atMs is not killed nor restarted: the timer is disarmed on its exit', async () => {
    const clock = new RealClock();
    const history = new History(clock);
    const processes = new ProcessTable();
    const kill = new AgentKill({ atMs: 300 }, new EffectLedger(), history);
    const startMs = clock.now();
    const starts: number[] = [];
    const startOf = (restart: number): Start => {
      starts.push(restart);
      return {
        // The agent exits at once; its grandchild keeps stdout open for 1.2 s (the close waits up to the 1 s grace).
        spec: { argv: ['sh', '-c', 'sleep 1.2 & exit 0'], timeoutMs: 10_000 },
        options: { clock, processes },
        resultFile: '/nonexistent/faultline-result.json',
        startMs,
        history,
      };
    };
    const result = await startsUntilDone(kill, startOf);
    expect({ kind: result.kind, exitCode: result.exitCode, signal: result.signal }).toEqual({
      kind: 'exited',
      exitCode: 0,
      signal: null,
    });
    expect(starts).toEqual([0]);
    expect(kill.fired).toBe(false);
    expect(history.events.map((e) => e.type)).not.toContain('agent_restart');
  });
});
