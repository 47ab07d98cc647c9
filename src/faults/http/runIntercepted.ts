import { installVirtualTimers, type VirtualTimersOptions } from '../../core/clock/globalTimers.js';
import type { ClockRun, VirtualClock } from '../../core/index.js';

export interface InterceptedRunOptions {
  /** Virtual milliseconds after which the body is stopped (default: unlimited). */
  readonly maxVirtualMs?: number;
  /** Which globals run on the clock during the body (default: all of them). */
  readonly timers?: VirtualTimersOptions;
}

/**
 * Runs `body` on `clock` with an interception session started around it and virtual global
 * timers installed only for the body's duration: the interceptors set up and tear down on
 * real timers, the client's timeouts and backoffs run on virtual ones. Teardown runs however
 * the body ends, so nothing stays installed.
 */
export async function runIntercepted<T>(
  clock: VirtualClock,
  start: () => { close(): void },
  body: () => Promise<T>,
  options: InterceptedRunOptions = {},
): Promise<ClockRun<T>> {
  const session = start();
  try {
    const timers = installVirtualTimers(clock, options.timers);
    try {
      return await clock.run(body, options.maxVirtualMs === undefined ? {} : { maxVirtualMs: options.maxVirtualMs });
    } finally {
      timers.uninstall();
    }
  } finally {
    session.close();
  }
}
