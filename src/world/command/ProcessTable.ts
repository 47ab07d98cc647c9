import { readdirSync, readFileSync } from 'node:fs';
import { RealClock, type History, type NewEvent } from '../../core/index.js';

/** One process group a command started: the trial's handle for it and the real ids. */
export interface StartedGroup {
  readonly command: string;
  readonly argv: readonly string[];
  readonly pgid: number;
}

/**
 * Whether any process of group `pgid` is still alive. Signal 0 probes without sending; it also
 * answers for zombies (dead, not yet reaped: an orphaned grandchild waits for init), so where
 * `/proc` exists a group counts as alive only while a member is not a zombie.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    // EPERM: the group exists but belongs to someone else; it is alive all the same.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return livingMember(pgid);
}

function livingMember(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true; // No /proc (macOS): signal 0 is all we know.
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // Gone while we looked.
    }
    // `pid (comm) state ppid pgrp …`; comm may hold spaces and parentheses, so split after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

/** Sends `signal` to every process of group `pgid`; a group already gone is not an error. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: nothing left in the group.
  }
}

/**
 * The process groups one trial's command tools started (R19). Commands record their
 * `command_start` and `command_end` here; once the trial's history is attached, the events go
 * into it. At the trial's end, `sweep` probes every group: one still alive is recorded as
 * `process_left` (which the `process-cleanup` checker reads) and then killed, so a leak fails
 * the trial without outliving the run.
 */
export class ProcessTable {
  readonly #groups: StartedGroup[] = [];
  #history: History | undefined;
  #next = 0;

  /** Sends this trial's command events to `history`. */
  attach(history: History): void {
    this.#history = history;
  }

  /** A fresh handle, deterministic per trial: `cmd-1`, `cmd-2`, … */
  nextHandle(): string {
    return `cmd-${++this.#next}`;
  }

  started(group: StartedGroup): void {
    this.#groups.push(group);
  }

  record(event: NewEvent): void {
    this.#history?.record(event);
  }

  get groups(): readonly StartedGroup[] {
    return this.#groups;
  }

  /**
   * Probes every group started, records each one still alive as `process_left`, then kills it.
   * A group gets `settleMs` (real time) to finish dying first: a signal sent just before the
   * trial ended is delivered, not yet acted on.
   * @returns the handles of the groups that were left.
   */
  async sweep(settleMs = 200): Promise<string[]> {
    const left: string[] = [];
    const real = new RealClock();
    for (const group of this.#groups) {
      for (let waited = 0; groupAlive(group.pgid) && waited < settleMs; waited += 10) await real.sleep(10);
      if (!groupAlive(group.pgid)) continue;
      left.push(group.command);
      this.record({ type: 'process_left', command: group.command, argv: group.argv });
      signalGroup(group.pgid, 'SIGKILL');
      // SIGKILL is delivered at once but acted on when the process next runs: wait for it, bounded.
      for (let waited = 0; groupAlive(group.pgid) && waited < 1000; waited += 10) await real.sleep(10);
    }
    return left;
  }
}
