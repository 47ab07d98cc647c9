import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { wallTicker } from '../../core/clock/RealClock.js';

/**
 * How often the trees being watched are walked (wall milliseconds). A process born and orphaned
 * between two walks (a double fork whose middle process exits at once) is never seen as a member.
 */
export const SAMPLE_MS = 50;

/** A process of a watched tree, as `/proc` shows it now. */
export interface TreeMember {
  readonly pid: number;
  /** Its start time (clock ticks after boot): a pid reused by another process is not taken for this one. */
  readonly start: string;
  /** Its program's name, for the history (never the pid). */
  readonly comm: string;
  /** Its process group now. */
  readonly pgrp: number;
}

/** One command's tree: what it started, followed while it runs; `survivors` is what is still alive of it. */
export interface TreeWatch {
  /** Walks the tree once more, then answers every member seen that is still alive (the root included). */
  survivors(): TreeMember[];
  /** Stops following the tree. */
  close(): void;
}

interface Stat extends TreeMember {
  readonly threads: number;
  readonly ppid: number;
}

/** The process `pid` now, or undefined when it is gone or a zombie. */
function statOf(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // `pid (comm) state ppid pgrp …`; comm may hold spaces and parentheses, so split after the last ')'.
  const close = text.lastIndexOf(')');
  const fields = text.slice(close + 2).split(' ');
  // fields[i] is stat field i + 3: state 3, ppid 4, pgrp 5, num_threads 20, starttime 22.
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
  return {
    pid,
    comm: text.slice(text.indexOf('(') + 1, close),
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    threads: Number(fields[17]),
    start: fields[19] ?? '',
  };
}

/** Where children are read from: each thread's `children` file, or (kernels without it) a scan of every process's parent. */
export type ChildrenSource = 'files' | 'scan';

const numbers = (text: string): number[] =>
  text
    .split(' ')
    .filter((s) => s !== '' && s !== '\n')
    .map(Number);

/** The children of `p` from its threads' `children` files (a child belongs to the thread that forked it). */
function childrenFromFiles(p: Stat): number[] {
  let tids: string[];
  try {
    tids = p.threads === 1 ? [String(p.pid)] : readdirSync(`/proc/${p.pid}/task`);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const tid of tids) {
    try {
      out.push(...numbers(readFileSync(`/proc/${p.pid}/task/${tid}/children`, 'utf8')));
    } catch {
      // The thread ended while we looked.
    }
  }
  return out;
}

/** Every process's children, from one scan of every process's parent. */
function childrenByScan(): Map<number, number[]> {
  const out = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const s = statOf(Number(entry));
    if (s !== undefined) out.set(s.ppid, [...(out.get(s.ppid) ?? []), s.pid]);
  }
  return out;
}

/** The members of one tree seen so far and not yet dead, by pid. */
class Tree {
  readonly members = new Map<number, TreeMember>();

  constructor(root: number) {
    const s = statOf(root);
    if (s !== undefined) this.members.set(root, s);
  }

  /** Drops the members that died, adds every descendant of the living ones; false when none is left. */
  walk(childrenOf: (p: Stat) => number[]): boolean {
    const queue: Stat[] = [];
    for (const member of this.members.values()) {
      const now = statOf(member.pid);
      // As it is now: a child seen between its fork and its exec had its parent's program name.
      if (now !== undefined && now.start === member.start) queue.push(now);
    }
    this.members.clear();
    for (const p of queue) this.members.set(p.pid, p);
    // Each process is read once a walk: those found here are walked in turn, from the stat just read.
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      for (const pid of childrenOf(next)) {
        if (this.members.has(pid)) continue;
        const child = statOf(pid);
        if (child === undefined) continue;
        this.members.set(pid, child);
        queue.push(child);
      }
    }
    return this.members.size > 0;
  }
}

/**
 * Follows the process trees of running commands (R19) by walking `/proc` every `periodMs`, one
 * walk for all of them: every descendant is recorded (pid and start time) while it is one, so a
 * process that later leaves its group and session, clears its environment and is orphaned is
 * still known as the command's at the trial's end. Only the trees' own processes are read, not
 * every process on the machine, and only while some tree is being watched.
 */
export class TreeSampler {
  readonly #trees = new Set<Tree>();
  readonly #periodMs: number;
  readonly #source: ChildrenSource;
  #stop: (() => void) | undefined;

  constructor(options: { readonly periodMs?: number; readonly children?: ChildrenSource } = {}) {
    this.#periodMs = options.periodMs ?? SAMPLE_MS;
    this.#source = options.children ?? (existsSync(`/proc/self/task/${process.pid}/children`) ? 'files' : 'scan');
  }

  /** Starts following the tree of `root` (a process just started); nothing is followed where there is no `/proc`. */
  watch(root: number): TreeWatch {
    const tree = new Tree(root);
    if (tree.members.size > 0) this.#trees.add(tree);
    this.#arm();
    return {
      survivors: () => {
        this.#walk([tree]);
        return [...tree.members.values()];
      },
      close: () => {
        this.#trees.delete(tree);
        this.#arm();
      },
    };
  }

  /** How many trees are followed now (for tests). */
  get watching(): number {
    return this.#trees.size;
  }

  #arm(): void {
    if (this.#trees.size > 0 && this.#stop === undefined) this.#stop = wallTicker(this.#periodMs, () => this.#tick());
    else if (this.#trees.size === 0 && this.#stop !== undefined) {
      this.#stop();
      this.#stop = undefined;
    }
  }

  #tick(): void {
    // A tree none of whose members lives has nothing left to find: it is no longer walked (its watch answers no survivor).
    for (const tree of this.#walk([...this.#trees])) this.#trees.delete(tree);
    this.#arm();
  }

  /** Walks `trees`; answers those with no living member. */
  #walk(trees: readonly Tree[]): Tree[] {
    const scan = this.#source === 'scan' && trees.length > 0 ? childrenByScan() : undefined;
    const childrenOf = scan ? (p: Stat) => scan.get(p.pid) ?? [] : childrenFromFiles;
    return trees.filter((tree) => !tree.walk(childrenOf));
  }
}

/** The sampler of this thread's commands: one for every table, so the walks do not multiply with the trials. */
export const treeSampler = new TreeSampler();
