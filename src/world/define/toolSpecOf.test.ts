import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolSpecOf } from './toolSpecOf.js';

describe('toolSpecOf', () => {
  it('has the keys, order and values of the spread literal it replaced, for every optional field given or not', () => {
    const input = z.object({});
    const output = z.string();
    const run = (): number => 1;
    const status = () => ({ state: 'not_found' as const });
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (withOutput, withKey, withStatus, honours, queryable) => {
          const o = withOutput ? output : undefined;
          const key = withKey ? 'ref' : undefined;
          const s = withStatus ? status : undefined;
          const before = {
            name: 't',
            description: 'd',
            risk: 'write',
            input,
            ...(o && { output: o }),
            honoursIdempotencyKeys: honours,
            canQueryStatus: queryable,
            ...(key === undefined ? {} : { businessKeyField: key }),
            run,
            ...(s && { status: s }),
          };
          const after = toolSpecOf('t', 'd', 'write', input, o, honours, queryable, key, run, s);
          expect(Object.entries(after)).toEqual(Object.entries(before));
        },
      ),
    );
  });
});
