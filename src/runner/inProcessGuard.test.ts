import { describe, expect, it } from 'vitest';
import { guardInProcess } from './inProcessGuard.js';

describe('guardInProcess', () => {
  it('turns process.exit into a throw held for the running trial, and puts the real one back on release', async () => {
    const real = process.exit;
    const guard = guardInProcess();
    try {
      expect(process.exit).not.toBe(real);
      expect(() => process.exit(0)).toThrow('the agent called process.exit(0)');
      expect(() => process.exit(7)).toThrow('the agent called process.exit(7)');
      // The first escape is the trial's; taking it empties the guard for the next trial.
      expect(await guard.take()).toBe('the agent called process.exit(0)');
      expect(await guard.take()).toBeUndefined();
    } finally {
      guard.release();
    }
    expect(process.exit).toBe(real);
  });
});
