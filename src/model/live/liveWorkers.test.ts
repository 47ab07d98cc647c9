import { describe, expect, it } from 'vitest';
import { defaultLiveWorkers, LIVE_WORKERS_PER_CORE } from './liveWorkers.js';

describe('defaultLiveWorkers', () => {
  it('is one worker per connection, no more than the trials', () => {
    expect(defaultLiveWorkers(8, 240, 4)).toBe(8);
    expect(defaultLiveWorkers(8, 3, 4)).toBe(3);
    expect(defaultLiveWorkers(1, 240, 2)).toBe(1);
  });

  it('caps the workers at a few per core, however many connections are allowed', () => {
    expect(defaultLiveWorkers(32, 240, 2)).toBe(2 * LIVE_WORKERS_PER_CORE);
    expect(defaultLiveWorkers(256, 1_000, 1)).toBe(LIVE_WORKERS_PER_CORE);
    expect(defaultLiveWorkers(32, 240, 0)).toBe(LIVE_WORKERS_PER_CORE);
  });

  it('is never less than one worker', () => {
    expect(defaultLiveWorkers(8, 0, 2)).toBe(1);
  });
});
