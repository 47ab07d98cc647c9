import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { HttpError, VirtualClock } from '../../core/index.js';
import type { ToolContext } from '../tool.js';
import { Operations } from './Operations.js';

/** One write of a round: its business key, the awaits its commit takes, and whether it fails. */
interface Write {
  readonly key: 'a' | 'b' | 'c';
  readonly hops: number;
  readonly fails: boolean;
}

const rounds = fc.array(
  fc.array(fc.record<Write>({ key: fc.constantFrom('a', 'b', 'c'), hops: fc.nat({ max: 3 }), fails: fc.boolean() }), {
    minLength: 1,
    maxLength: 4,
  }),
  { minLength: 1, maxLength: 5 },
);

describe('Operations status by business key', () => {
  test.prop([rounds])(
    'is pending exactly while a write of the key is in flight, then failed (its last failure) or not found, round after round',
    async (plan) => {
      const ops = new Operations('svc', new VirtualClock(), {});
      const ctx = { request: 'r' } as ToolContext;
      const lastFailure = new Map<string, number>();
      const status = (key: string) => ops.status({ op: 't', businessKey: key, input: {} }, undefined, () => undefined);
      for (const [r, round] of plan.entries()) {
        const writes = round.map((w, i) =>
          ops.write('t', { i }, w.key, ctx, {
            commit: async () => {
              for (let k = 0; k < w.hops; k++) await Promise.resolve();
              if (w.fails) throw new HttpError(409, `round ${r} write ${i}`);
              return i;
            },
          }),
        );
        for (const key of ['a', 'b', 'c'])
          expect(status(key).state).toBe(
            round.some((w) => w.key === key) ? 'pending' : lastFailure.has(key) ? 'failed' : 'not_found',
          );
        // Settled in the order they finish: the failure a key keeps is the last one to finish.
        const order: number[] = [];
        await Promise.all(
          writes.map((p, i) =>
            p.then(
              () => undefined,
              () => void order.push(i),
            ),
          ),
        );
        for (const i of order) lastFailure.set(round[i]!.key, r * 10 + i);
        for (const key of ['a', 'b', 'c']) {
          const s = status(key);
          const failed = lastFailure.get(key);
          expect(s).toEqual(
            failed === undefined
              ? { state: 'not_found' }
              : { state: 'failed', status: 409, message: `round ${Math.floor(failed / 10)} write ${failed % 10}` },
          );
        }
      }
    },
  );
});
