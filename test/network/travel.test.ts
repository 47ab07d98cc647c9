/**
 * `ctx.travel(leg)` from a user's `defineService`: a read-then-write service makes its second
 * round trip inside one call, so whether a rival write lands between its read and its commit
 * depends on the network's timing. Through the public API only.
 */
import { describe, expect, it } from 'vitest';
import {
  defineAgent,
  defineScenario,
  defineService,
  rulebookDefault,
  runTrial,
  ServiceError,
  z,
  type HistoryEvent,
  type ScenarioInput,
} from '../../src/public/index.js';

/** Optimistic concurrency: read the version, answer the read, send the write, commit if still current, else 409. */
const records = defineService({
  name: 'records',
  state: { version: 0 } as { version: number },
  tools: {
    update_record: {
      description: 'Sets the shared record if nobody wrote it since this call read it.',
      risk: 'idempotent-write',
      businessKey: 'writer',
      idempotency: false,
      input: z.object({ writer: z.string() }).strict(),
      async run({ writer }, ctx) {
        const read = ctx.state.version;
        await ctx.travel('response'); // the read's answer travels back to the client…
        await ctx.travel('request'); // …and its write travels to the service
        if (ctx.state.version !== read)
          throw new ServiceError(409, {
            code: 'version_conflict',
            message: `${writer} read version ${read}, now ${ctx.state.version}`,
          });
        ctx.state.version = read + 1;
        ctx.effect('record.updated', { key: writer, data: { version: read + 1 } });
        return { version: read + 1 };
      },
    },
  },
});

/** Two writers at once; each reports what it got. */
const agent = defineAgent(async ({ tools }) => {
  const results = await Promise.all(['a', 'b'].map((writer) => tools['update_record']!({ writer })));
  return { outcome: 'completed', message: results.map((r) => r.kind).join(',') };
});

const scenario = (network?: ScenarioInput['network']) =>
  defineScenario({
    name: 'two-writers',
    services: [records],
    ...(network && { network }),
    agent: { kind: 'function', task: 'Both writers update the record', fn: agent },
    checks: ['duplicates'],
  });

const effects = (h: readonly HistoryEvent[]) => h.filter((e) => e.type === 'effect').map((e) => `${e.key}@${e.t}`);

describe('ctx.travel: a service round trip inside one call', () => {
  it('sleeps one draw of the leg: the commit comes two legs after the delivery, the answer one leg later', async () => {
    const trial = await runTrial({
      scenario: scenario({ latency: { kind: 'constant', ms: 10 } }),
      config: rulebookDefault,
      runSeed: 1,
      trialIndex: 0,
    });
    const h = trial.history;
    expect(h.filter((e) => e.type === 'delivery').map((e) => e.t)).toEqual([10, 10]);
    // Both read version 0 at t=10; a commits at t=30, b finds version 1 then: a 409, no retry (a permanent error, R1).
    expect(effects(h)).toEqual(['a@30']);
    expect(h.filter((e) => e.type === 'response').map((e) => `${e.result}:${e.status}@${e.t}`)).toEqual([
      'ok:200@40',
      'error:409@40',
    ]);
  });

  it('with per-tool variance, which writer wins depends on the draws', async () => {
    const winners = new Set<string>();
    for (let runSeed = 1; runSeed <= 12; runSeed++) {
      const trial = await runTrial({
        scenario: scenario({ tools: { update_record: { latency: { kind: 'normal', meanMs: 10, sdMs: 3 } } } }),
        config: rulebookDefault,
        runSeed,
        trialIndex: 0,
      });
      winners.add(
        effects(trial.history)
          .map((e) => e.split('@')[0])
          .join(','),
      );
    }
    expect([...winners].sort()).toEqual(['a', 'b']);
  });

  it('is no sleep at all without a network: nothing moves on the clock', async () => {
    const trial = await runTrial({ scenario: scenario(), config: rulebookDefault, runSeed: 1, trialIndex: 0 });
    expect(trial.history.every((e) => e.t === 0)).toBe(true);
    expect(trial.history.some((e) => e.type === 'response' && 'legs' in e)).toBe(false);
  });
});
