import { describe, expect, it } from 'vitest';
import { HttpError, TimeoutError, VirtualClock } from '../../core/index.js';
import { classifyError } from '../classify.js';
import { CircuitBreaker } from './CircuitBreaker.js';
import { CircuitOpenError } from './CircuitOpenError.js';
import { isServiceFailure } from './CircuitBreakerTransport.js';

describe('CircuitBreaker', () => {
  it('opens after the threshold of consecutive failures, refuses until openMs, then lets one probe through', async () => {
    const clock = new VirtualClock(0);
    const b = new CircuitBreaker({ failureThreshold: 3, openMs: 1_000 }, clock);
    b.record(true, false);
    b.record(false, false); // a success resets the count
    b.record(true, false);
    b.record(true, false);
    expect(b.state).toEqual({ kind: 'closed', failures: 2 });
    b.record(true, false);
    expect(b.state).toEqual({ kind: 'open', since: 0 });
    await clock.run(() => clock.sleep(400));
    expect(b.admit()).toEqual({ kind: 'refuse', retryInMs: 600 });
    await clock.run(() => clock.sleep(600));
    expect(b.admit()).toEqual({ kind: 'send', probe: true });
    expect(b.admit()).toEqual({ kind: 'refuse', retryInMs: 0 });
    b.record(false, true);
    expect(b.state).toEqual({ kind: 'closed', failures: 0 });
    expect(b.opened).toBe(1);
  });

  it('reopens when the probe fails', async () => {
    const clock = new VirtualClock(0);
    const b = new CircuitBreaker({ failureThreshold: 1, openMs: 100 }, clock);
    b.record(true, false);
    await clock.run(() => clock.sleep(100));
    expect(b.admit()).toEqual({ kind: 'send', probe: true });
    b.record(true, true);
    expect(b.state).toEqual({ kind: 'open', since: 100 });
    expect(b.opened).toBe(2);
  });
});

describe('isServiceFailure and CircuitOpenError', () => {
  it('counts server trouble, not business answers', () => {
    expect(isServiceFailure(new HttpError(503, 'x'))).toBe(true);
    expect(isServiceFailure(new HttpError(429, 'x'))).toBe(true);
    expect(isServiceFailure(new TimeoutError(10))).toBe(true);
    expect(isServiceFailure(new HttpError(409, 'x'))).toBe(false);
    expect(isServiceFailure(new HttpError(404, 'x'))).toBe(false);
  });

  it('classifies a refused send as unavailable, not uncertain', () => {
    expect(classifyError(new CircuitOpenError(250), 0)).toEqual({
      kind: 'unavailable',
      message: 'circuit breaker open: not sent, the service failed too often (next probe in 250 ms)',
      retryable: true,
      code: 'ECIRCUITOPEN',
    });
  });
});
