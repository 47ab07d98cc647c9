/**
 * Per-thread CPU of this process, from Linux's `/proc/self/task/<tid>/stat` (user + system
 * clock ticks), sampled while some work runs: Node 20 has no per-thread CPU call, and a worker
 * thread's figures are gone from /proc once it exits, so each thread's last reading is kept.
 * For bench/workers.ts's main thread against a worker (issue 44: compare workers by what the
 * main thread costs). Linux only; elsewhere it reads nothing. Asserts nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of `/proc`'s CPU fields (`getconf CLK_TCK`: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** Each thread's CPU so far, in ms, by thread id. */
export function threadCpuMs(): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      // After the command's closing parenthesis: state is field 3, utime 14 and stime 15 (so 11 and 12 here).
      const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      out.set(Number(tid), ((Number(fields[11]) + Number(fields[12])) * 1_000) / TICKS_PER_SECOND);
    } catch {
      // The thread ended between the listing and the read: its last sample stands.
    }
  }
  return out;
}

/** This process's main thread's CPU so far, ms (its thread id is the process id). */
export const mainThreadCpuMs = (): number => threadCpuMs().get(process.pid) ?? 0;

/** Per-thread CPU over `work`: the main thread's, and each thread that started meanwhile (the workers, mostly). */
export interface ThreadCpu {
  /** The main thread's CPU during the work, ms. */
  readonly mainMs: number;
  /** The threads started during the work, CPU ms each, most first. */
  readonly startedMs: readonly number[];
  /** The threads that were there before (V8's compiler and collector threads, libuv's pool), CPU ms in all. */
  readonly otherMs: number;
}

/** Runs `work`, sampling every thread's CPU every `everyMs` (the sampling's own cost, ≈ 0.1 ms a sample, falls on the main thread). */
export async function withThreadCpu<T>(
  work: () => Promise<T>,
  everyMs = 25,
): Promise<{ readonly result: T; readonly cpu: ThreadCpu }> {
  const before = threadCpuMs();
  const last = new Map(before);
  const sample = (): void => {
    for (const [tid, ms] of threadCpuMs()) last.set(tid, ms);
  };
  const timer = setInterval(sample, everyMs);
  let result: T;
  try {
    result = await work();
  } finally {
    clearInterval(timer);
    sample();
  }
  let mainMs = 0;
  let otherMs = 0;
  const startedMs: number[] = [];
  for (const [tid, ms] of last) {
    const spent = ms - (before.get(tid) ?? 0);
    if (tid === process.pid) mainMs = spent;
    else if (before.has(tid)) otherMs += spent;
    else startedMs.push(spent);
  }
  startedMs.sort((a, b) => b - a);
  return { result, cpu: { mainMs, startedMs, otherMs } };
}
