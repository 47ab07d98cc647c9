import { readdirSync, readFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { RealClock, type History, type NewEvent } from '../../core/index.js';
import { treeSampler, type TreeWatch } from './TreeSampler.js';

/** One process group a command started: the trial's handle for it and the real ids. */
export interface StartedGroup {
  readonly command: string;
  readonly argv: readonly string[];
  readonly pgid: number;
  /** The value of `TREE_VAR` its processes inherit (see `ProcessTable.markerOf`). */
  readonly marker?: string;
}

/**
 * Set in every command's environment, and inherited by whatever it starts: a process that left
 * the command's group and session (`setsid`, a daemon's double fork) still carries it, so the
 * trial's end finds it by its environment where a group probe no longer can.
 */
export const TREE_VAR = 'FAULTLINE_PROCESS_TREE';

/** Tables made in this thread: with the pid and thread, what makes a marker unique on the machine. */
let tables = 0;

/** A process found alive by its marker: its pid, and its program name for the history (never the pid). */
interface Escapee {
  readonly pid: number;
  readonly comm: string;
}

/** When process `pid` started (clock ticks after boot, stat field 22), or undefined when it is gone or there is no `/proc`. */
function startOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const start = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    return Number.isFinite(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The processes (zombies aside) outside their command's group that carry one of `markers`, by marker.
 * A process inherits a marker from a command's tree, so it started no earlier than the command
 * did: the environment (the costly read) is read only of processes started since `since`.
 */
function escapees(groups: readonly StartedGroup[], since: number): Map<string, Escapee[]> {
  const found = new Map<string, Escapee[]>();
  const wanted = new Map(groups.filter((g) => g.marker !== undefined).map((g) => [`${TREE_VAR}=${g.marker}`, g]));
  if (wanted.size === 0) return found;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found; // No /proc (macOS): the group probe is all there is.
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const [state, , pgrp] = fields;
      if (state === 'Z' || state === 'X' || Number(fields[19]) < since) continue;
      for (const variable of readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0')) {
        const group = wanted.get(variable);
        // Members of the group itself are the group probe's to find.
        if (!group || Number(pgrp) === group.pgid) continue;
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        found.set(group.marker!, [...(found.get(group.marker!) ?? []), { pid: Number(entry), comm }]);
      }
    } catch {
      continue; // Gone while we looked, or not ours to read.
    }
  }
  return found;
}

const alive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
};

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

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: gone already.
  }
}

/**
 * The process groups one trial's command tools started (R19). Commands record their
 * `command_start` and `command_end` here; once the trial's history is attached, the events go
 * into it. At the trial's end, `sweep` probes every group: one still alive is recorded as
 * `process_left` (which the `process-cleanup` checker reads) and then killed, so a leak fails
 * the trial without outliving the run. What left the group is found by the marker it inherited
 * or, when it cleared its environment, because the sampler saw it in the command's tree while it
 * ran (see `TreeSampler`; a cgroup would need a writable hierarchy, a subreaper a `prctl` that
 * Node does not offer). Still unseen: a process born and orphaned between two samples that also
 * cleared its environment.
 */
export class ProcessTable {
  readonly #groups: StartedGroup[] = [];
  /** Each group's tree, followed while the trial runs: what left it with its environment cleared is still known. */
  readonly #trees = new Map<StartedGroup, TreeWatch>();
  /** When the earliest group's leader started (see `escapees`); 0 (look at every process) when one could not be read. */
  #since = Infinity;
  #history: History | undefined;
  #next = 0;
  readonly #id = `${process.pid}.${threadId}.${++tables}`;

  /** Sends this trial's command events to `history`. */
  attach(history: History): void {
    this.#history = history;
  }

  /** A fresh handle, deterministic per trial: `cmd-1`, `cmd-2`, … */
  nextHandle(): string {
    return `cmd-${++this.#next}`;
  }

  /** The marker `command`'s processes inherit in `TREE_VAR`: unique to this table and command, never recorded. */
  markerOf(command: string): string {
    return `${this.#id}.${command}`;
  }

  started(group: StartedGroup): void {
    this.#groups.push(group);
    this.#trees.set(group, treeSampler.watch(group.pgid));
    this.#since = Math.min(this.#since, startOf(group.pgid) ?? 0);
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
    }
    // One look at every process for all the groups: those that left their group are found by the marker they inherited,
    // or (the marker cleared with the rest of their environment) because they were seen in the tree while it ran.
    const escaped = escapees(this.#groups, this.#since);
    for (const group of this.#groups) {
      const out = [...((group.marker !== undefined && escaped.get(group.marker)) || [])];
      for (const p of this.#trees.get(group)?.survivors() ?? [])
        if (p.pgrp !== group.pgid && !out.some((e) => e.pid === p.pid)) out.push(p);
      this.#trees.get(group)?.close();
      this.#trees.delete(group);
      const inGroup = groupAlive(group.pgid);
      if (!inGroup && out.length === 0) continue;
      left.push(group.command);
      this.record({
        type: 'process_left',
        command: group.command,
        argv: group.argv,
        ...(out.length > 0 && { escaped: out.map((e) => e.comm).sort() }),
      });
      signalGroup(group.pgid, 'SIGKILL');
      for (const e of out) signalPid(e.pid, 'SIGKILL');
      // SIGKILL is delivered at once but acted on when the process next runs: wait for it, bounded.
      for (let waited = 0; (groupAlive(group.pgid) || out.some((e) => alive(e.pid))) && waited < 1000; waited += 10)
        await real.sleep(10);
    }
    return left;
  }
}
