import { createHook } from 'node:async_hooks';
import { ChildProcess } from 'node:child_process';
import { MessagePort } from 'node:worker_threads';

/**
 * Real work a trial's body may await that no one `hold`s on its clock (a user's agent reading a file, importing a
 * module, yielding to the event loop, running a child process): what the virtual clock waits for, with time standing
 * still, before it calls a body with nothing left on the clock hung.
 */

/**
 * Node's own timer, taken when this module loads: during a trial the global one may be the clock's
 * (./globalTimers.ts), and the wait for untracked work must turn the real event loop.
 */
const realSetTimeout = setTimeout;
/** Node's own `performance.now`, for the same reason: in `'library'` mode the global one reads the clock. */
const realNow = performance.now.bind(performance);
const pause = (ms: number): Promise<void> => new Promise((resolve) => realSetTimeout(resolve, ms));

/** Node's lists of what keeps its event loop alive: `process._getActiveRequests` and `_getActiveHandles`. */
const nodeProcess = process as NodeJS.Process & {
  _getActiveRequests?: () => readonly object[];
  _getActiveHandles?: () => readonly object[];
};

/**
 * Handles that stand for work a body may wait on, alive (and holding the event loop) now: child processes, and message
 * ports (a module loader's thread, tsx's, held while an `import()` waits on it; a worker thread's). A body's own are
 * those not there when its run began.
 */
export function workHandles(): readonly object[] {
  const handles = nodeProcess._getActiveHandles?.() ?? [];
  return handles.filter((handle) => handle instanceof ChildProcess || handle instanceof MessagePort);
}

/**
 * Whether Node has real work in flight a body may wait on: a request (a file read, a DNS lookup; each ends on its own),
 * or a child process or message port that was not holding the loop when the run began (an `import()` through a loader
 * thread holds its port only while it waits). Other long-lived handles (a server, a socket) are left out: they are
 * there whether the body waits on them or not, and would keep a hung body from ever being called so.
 */
function inFlight(handlesBefore: readonly object[]): boolean {
  if ((nodeProcess._getActiveRequests?.() ?? []).length > 0) return true;
  return workHandles().some((handle) => !handlesBefore.includes(handle));
}

/**
 * Async resources the process started while some clock waits here (a file request, an immediate, a child process),
 * except promises, timers (a pause's own, or another trial's) and the immediates the clocks queue for their turns. A
 * request in flight is not enough to see a body that reads files one after another: between two reads there is none.
 * The hook is enabled only while some clock waits so, never while trials just run.
 */
let activity = 0;
let queuing = false;
let watching = 0;
const activityHook = createHook({
  init(_id, type) {
    if (type !== 'PROMISE' && type !== 'Timeout' && !(queuing && type === 'Immediate')) activity++;
  },
});

/** Runs `queue`, which queues a clock's own turns: their immediates are not a body's activity. */
export function queueingTurns(queue: () => void): void {
  queuing = true;
  try {
    queue();
  } finally {
    queuing = false;
  }
}

/** A bound only, generous: a read of a FIFO no one writes never ends. */
const LIMIT_MS = 60_000;

/**
 * How long the process must stay quiet while a message port holds the event loop before a body is called hung. An
 * `import()` through a module loader's thread (tsx's) waits on that thread with nothing to see on this one: no request,
 * no resource started, and where ports are held for good (a worker's channel to its host) not even a port newly held.
 * Only real time tells that answer from none, so a body that may be waiting on one gets this much of it; a second
 * reader saw a correct agent importing TypeScript helpers called hung in some trials without it, at load 10 and more.
 */
const QUIET_WITH_PORTS_MS = 500;

/** Whether some message port holds the event loop: a loader thread may be working for the body. */
function portHeld(): boolean {
  return (nodeProcess._getActiveHandles?.() ?? []).some((handle) => handle instanceof MessagePort);
}

/**
 * Turns the real event loop until `moved()` (the body settled or did something on its clock): true. False once the
 * process was quiet (no activity, no untracked work in flight) for a whole turn, or for `QUIET_WITH_PORTS_MS` while a
 * message port holds the loop (nothing real is coming for the body), or after the bound. The first two turns are 0 ms
 * timers, each through the loop's poll (a read done, an immediate run); then longer ones, up to 50 ms.
 */
export async function waitForUntrackedWork(moved: () => boolean, handlesBefore: readonly object[]): Promise<boolean> {
  if (watching++ === 0) activityHook.enable();
  try {
    let waited = 0;
    let quiet = 0;
    for (let round = 0; ; round++) {
      const ms = round < 2 ? 0 : Math.min(2 ** (round - 2), 50);
      const before = activity;
      const started = realNow();
      await pause(ms);
      const took = realNow() - started;
      waited += took;
      if (moved()) return true;
      quiet = activity === before && !inFlight(handlesBefore) ? quiet + took : 0;
      if (round >= 1 && quiet > 0 && (quiet >= QUIET_WITH_PORTS_MS || !portHeld())) return false;
      if (waited >= LIMIT_MS) return false;
    }
  } finally {
    if (--watching === 0) activityHook.disable();
  }
}
