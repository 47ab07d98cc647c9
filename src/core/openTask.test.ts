import { describe, expect, it } from 'vitest';
import { openTaskState } from './openTask.js';

describe('openTaskState', () => {
  it('reads an accepted or running task from state or status', () => {
    expect(openTaskState({ deployId: 'dep-1', state: 'accepted' })).toBe('accepted');
    expect(openTaskState({ taskId: 't-1', status: 'running' })).toBe('running');
  });

  it('says nothing of a final state, another shape or a non-object', () => {
    expect(openTaskState({ state: 'succeeded' })).toBeUndefined();
    expect(openTaskState({ orderId: 'ord-1' })).toBeUndefined();
    expect(openTaskState('accepted')).toBeUndefined();
    expect(openTaskState(null)).toBeUndefined();
  });
});
