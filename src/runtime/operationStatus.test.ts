import { describe, expect, it } from 'vitest';
import type { ToolResult } from './result.js';
import { readOperationAnswer } from './operationStatus.js';

const okValue = (value: unknown): ToolResult => ({
  kind: 'ok',
  call: 'call-1',
  tool: 'query_operation_status',
  attempts: 1,
  value,
});

describe('readOperationAnswer', () => {
  it('reads the service vocabulary (state) and R27 vocabulary (status)', () => {
    expect(readOperationAnswer(okValue({ state: 'succeeded', value: { id: 'o1' } }))).toEqual({
      state: 'succeeded',
      value: { id: 'o1' },
    });
    expect(readOperationAnswer(okValue({ status: 'succeeded', result: 7 }))).toEqual({ state: 'succeeded', value: 7 });
    expect(readOperationAnswer(okValue({ state: 'failed', status: 409, message: 'card declined' }))).toEqual({
      state: 'failed',
      message: 'card declined',
    });
    expect(readOperationAnswer(okValue({ status: 'failed' }))).toEqual({
      state: 'failed',
      message: 'the operation failed',
    });
  });

  it('treats pending, not found, garbage and a failed query as unconfirmed', () => {
    expect(readOperationAnswer(okValue({ state: 'pending' }))).toEqual({ state: 'unconfirmed' });
    expect(readOperationAnswer(okValue({ state: 'not_found' }))).toEqual({ state: 'unconfirmed' });
    expect(readOperationAnswer(okValue('succeeded'))).toEqual({ state: 'unconfirmed' });
    expect(
      readOperationAnswer({
        kind: 'error',
        call: 'c',
        tool: 'query_operation_status',
        attempts: 1,
        error: {
          error_type: 'timeout',
          message: 'slow',
          retryable: true,
          arguments: {},
          attempts: 1,
          next_actions: [],
        },
      }),
    ).toEqual({ state: 'unconfirmed' });
  });
});
