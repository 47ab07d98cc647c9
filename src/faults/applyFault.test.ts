import { describe, expect, it } from 'vitest';
import { HttpError, VirtualClock } from '../core/index.js';
import { applyFault, type FaultAnswers } from './applyFault.js';
import type { Fault } from './fault.js';

type Seen = string;

/** Answers as strings and records every delivery, so each fault's shape is exact. */
function recorder(): { answers: FaultAnswers<Seen>; deliveries: string[] } {
  const deliveries: string[] = [];
  return {
    deliveries,
    answers: {
      deliver: (copy, failure) => {
        deliveries.push(failure ? `${copy}:${failure instanceof HttpError ? failure.status : '?'}` : `${copy}`);
        return Promise.resolve(`ok${copy}`);
      },
      lost: (cause) => `lost:${cause}`,
      error: (error) => `error:${error.name}`,
      malformed: (answer) => `cut:${answer}`,
      lie: (fault) => Promise.resolve(`lie:${fault.kind}`),
    },
  };
}

describe('applyFault', () => {
  it('shapes each fault from the transport\'s answers', async () => {
    const cases: [Fault | undefined, Seen, string[]][] = [
      [undefined, 'ok0', ['0']],
      [{ kind: 'timeout' }, 'lost:timeout', []],
      [{ kind: 'partial_write', lostAs: 'timeout' }, 'lost:partial_write', ['0']],
      [{ kind: 'duplicate', copies: 2, concurrent: false }, 'ok0', ['0', '1']],
      [{ kind: 'server_error' }, 'ok0', ['0:500']],
      [{ kind: 'malformed' }, 'cut:ok0', ['0']],
      // A lie delivers through the transport's own `lie`, which delivers first.
      [{ kind: 'stale', lagMs: 5_000 }, 'lie:stale', []],
      [{ kind: 'empty' }, 'lie:empty', []],
      [{ kind: 'truncated', keep: 1 }, 'lie:truncated', []],
      [{ kind: 'wrong_value', path: 'status' }, 'lie:wrong_value', []],
    ];
    for (const [fault, answer, deliveries] of cases) {
      const r = recorder();
      const clock = new VirtualClock(0);
      expect(await applyFault(fault, r.answers, clock)).toBe(answer);
      expect(r.deliveries).toEqual(deliveries);
    }
  });

  it('delivers a latency fault at once and answers after the sleep', async () => {
    const r = recorder();
    const clock = new VirtualClock(0);
    const run = await clock.run(() => applyFault({ kind: 'latency', ms: 250 }, r.answers, clock));
    expect(run).toEqual({ kind: 'settled', value: 'ok0', at: 250 });
    expect(r.deliveries).toEqual(['0']);
  });
});
