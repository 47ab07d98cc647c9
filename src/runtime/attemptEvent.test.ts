import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { OPEN_TASK_STATES, openTaskField, type ToolContract } from '../core/index.js';
import { z } from 'zod';
import { attemptEvent, attemptRequest } from './attemptEvent.js';
import { businessKeyOf } from './businessKey.js';
import { outcomeEvent } from './outcomeEvent.js';
import type { ToolResult } from './result.js';
import { toolCallEvent } from './toolCallEvent.js';

/** The same values with the same keys in the same order: what a history's bytes depend on. */
const sameBytes = (built: object, spread: object): void => {
  expect(Object.keys(built)).toEqual(Object.keys(spread));
  expect(JSON.stringify(built)).toBe(JSON.stringify(spread));
};

const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined });

describe('events built key by key match the conditional spreads they replaced', () => {
  test.prop([fc.string(), fc.nat(), fc.string(), fc.string(), maybe(fc.string()), maybe(fc.string()), fc.jsonValue()])(
    'attempt event and request',
    (call, attempt, tool, request, key, op, input) => {
      const withKey = key === undefined ? {} : { idempotencyKey: key };
      const record = op === undefined ? undefined : { op };
      sameBytes(attemptEvent(call, attempt, tool, request, key, op), {
        seq: 0,
        t: 0,
        type: 'attempt',
        call,
        attempt,
        tool,
        purpose: 'call',
        request,
        ...withKey,
        ...(record && { op: record.op }),
      });
      sameBytes(attemptRequest(request, tool, input, call, attempt, key), {
        request,
        tool,
        purpose: 'call',
        input,
        call,
        attempt,
        ...withKey,
      });
    },
  );

  const task = fc.record({ id: fc.string(), state: fc.constantFrom(...OPEN_TASK_STATES, 'completed') });
  test.prop([
    fc.string(),
    fc.string(),
    fc.nat(),
    fc.boolean(),
    fc.oneof(fc.jsonValue(), task),
    maybe(fc.string()),
    fc.boolean(),
  ])('outcome event', (call, tool, attempts, ok, value, op, failed) => {
    const error = failed ? { kind: 'unavailable' as const, message: 'down', retryable: true } : undefined;
    const result: ToolResult = ok
      ? { kind: 'ok', call, tool, attempts, value }
      : {
          kind: 'error',
          call,
          tool,
          attempts,
          error: { error_type: 'unavailable', message: 'down', retryable: true, attempts, next_actions: [] } as never,
        };
    const done = { result, error, op };
    sameBytes(outcomeEvent(call, tool, result, error, op), {
      seq: 0,
      t: 0,
      type: 'outcome',
      call,
      tool,
      result: result.kind,
      attempts: result.attempts,
      ...(done.error !== undefined && { error: done.error }),
      ...(done.op !== undefined && { op: done.op }),
      ...openTaskField(result.kind === 'ok' ? result.value : undefined),
    });
  });

  test.prop([
    fc.string(),
    fc.string(),
    fc.boolean(),
    maybe(fc.string()),
    maybe(fc.string()),
    maybe(fc.nat()),
    fc.dictionary(fc.string(), fc.jsonValue()),
    fc.oneof(fc.string(), fc.integer(), fc.boolean()),
  ])('tool_call event', (call, tool, known, businessKeyField, caller, turn, rest, id) => {
    // The business key's field is there most of the time, a string, a number or neither.
    const input = businessKeyField === undefined ? rest : { ...rest, [businessKeyField]: id };
    const contract: ToolContract | undefined = known
      ? {
          name: tool,
          description: '',
          risk: 'idempotent-write',
          input: z.unknown(),
          honoursIdempotencyKeys: true,
          canQueryStatus: false,
          ...(businessKeyField !== undefined && { businessKeyField }),
        }
      : undefined;
    const options = { ...(caller !== undefined && { caller }), ...(turn !== undefined && { turn }) };
    const businessKey = contract && businessKeyOf(contract, input);
    sameBytes(toolCallEvent(call, tool, contract, input, options), {
      seq: 0,
      t: 0,
      type: 'tool_call',
      call,
      tool,
      risk: contract?.risk ?? 'read',
      honoursKeys: contract?.honoursIdempotencyKeys ?? false,
      input,
      ...(businessKey !== undefined && { businessKey }),
      ...(options.caller !== undefined && { caller: options.caller }),
      ...(options.turn !== undefined && { turn: options.turn }),
    });
  });
});
