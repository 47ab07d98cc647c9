import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { VirtualClock } from '../../core/index.js';
import { besideChains } from '../../faults/microtaskOrder.testkit.js';
import { Operations, type WriteSteps } from '../services/Operations.js';
import type { ToolContext } from '../tool.js';
import type { ServiceContext } from './ToolDefinition.js';
import { ToolWrite, type ToolWriter } from './ToolWrite.js';

interface Case {
  readonly check: 'none' | 'passes' | 'throws';
  /** Awaits inside the tool's run before it answers; `sync`: it answers without a promise. */
  readonly hops: number;
  readonly sync: boolean;
  readonly throws: boolean;
  readonly key: string | undefined;
  /** The request's idempotency key, honoured by the table. */
  readonly idempotencyKey: string | undefined;
}

const cases = fc.record<Case>({
  check: fc.constantFrom('none', 'passes', 'throws'),
  hops: fc.nat({ max: 3 }),
  sync: fc.boolean(),
  throws: fc.boolean(),
  key: fc.option(fc.constantFrom('b1', 'b2'), { nil: undefined }),
  idempotencyKey: fc.option(fc.constant('idem-1'), { nil: undefined }),
});

type Steps = (
  writer: ToolWriter<unknown, unknown>,
  input: unknown,
  ctx: ServiceContext<unknown, unknown>,
  key: string | undefined,
) => WriteSteps<unknown>;

/** The steps as ServiceInstance built them before `ToolWrite`: an object literal with a closure per step. */
const literalSteps: Steps = (writer, input, ctx, key) => ({
  ...(writer.tool.check && { check: () => writer.tool.check?.(input, ctx) }),
  commit: async () => {
    try {
      const value = await writer.answer(input, ctx);
      if (key !== undefined) writer.committed(key, value);
      return value;
    } finally {
      writer.settled();
    }
  },
});

const classSteps: Steps = (writer, input, ctx, key) => new ToolWrite(writer, input, ctx, key);

/** Two writes of `c` through `Operations.write` beside reaction chains: everything they did, in order. */
async function writeLog(c: Case, chains: readonly number[], steps: Steps): Promise<string[]> {
  const log: string[] = [];
  const clock = new VirtualClock();
  const ops = new Operations('svc', clock, {});
  const tool = {
    ...(c.check !== 'none' && {
      check(this: unknown, input: unknown): void {
        log.push(`check ${JSON.stringify(input)} this=${this === tool}`);
        if (c.check === 'throws') throw new Error('refused on arrival');
      },
    }),
  };
  const run = (input: unknown): unknown => {
    log.push(`run ${JSON.stringify(input)}`);
    if (c.sync) {
      if (c.throws) throw new Error('run failed');
      return { done: input };
    }
    return (async () => {
      for (let k = 0; k < c.hops; k++) {
        await Promise.resolve();
        log.push(`run hop ${k}`);
      }
      if (c.throws) throw new Error('run failed');
      return { done: input };
    })();
  };
  const writer: ToolWriter<unknown, unknown> = {
    tool,
    answer: async (input) => await run(input),
    committed: (key, value) => log.push(`committed ${key} ${JSON.stringify(value)}`),
    settled: () => log.push('settled'),
  };
  const ctx = { state: {} } as ServiceContext<unknown, unknown>;
  const toolCtx = {
    request: 'r',
    ...(c.idempotencyKey !== undefined && { idempotencyKey: c.idempotencyKey }),
  } as ToolContext;
  const writes = [1, 2].map((n) =>
    ops.write('t', { n }, c.key, toolCtx, steps(writer, { n }, ctx, c.key)).then(
      (value) => log.push(`write ${n} ok ${JSON.stringify(value)}`),
      (error: unknown) => log.push(`write ${n} failed ${(error as Error).message}`),
    ),
  );
  return besideChains(log, chains, writes);
}

describe('ToolWrite', () => {
  test.prop([cases, fc.array(fc.nat({ max: 8 }), { maxLength: 3 })])(
    'runs a write as the object literal with a closure per step did: same calls, same results, same microtask order',
    async (c, chains) => {
      expect(await writeLog(c, chains, classSteps)).toEqual(await writeLog(c, chains, literalSteps));
    },
  );
});
