import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';

/**
 * Runs `fn` repeatedly for about `ms` of wall time and reports per-call figures. Before that it
 * warms up for at least 20 calls and `warmMs` of wall time (by default as long as it measures):
 * a trial's code is compiled by V8's optimising tiers only after a few thousand calls, so twenty
 * calls measured a trial half cold beside a loop that was hot within them, and the ratio printed
 * at the top of a benchmark read 4 to 5x where alternating warm rounds read 2.5x.
 */
export async function measure(
  name: string,
  fn: () => Promise<unknown>,
  ms = 1_000,
  warmMs = ms,
): Promise<{ name: string; runs: number; warmRuns: number; meanUs: number; p50Us: number; p95Us: number }> {
  let warmRuns = 0;
  const warmEnd = performance.now() + warmMs;
  while (warmRuns < 20 || performance.now() < warmEnd) {
    await fn();
    warmRuns++;
  }
  const samples: number[] = [];
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const t0 = performance.now();
    await fn();
    samples.push((performance.now() - t0) * 1_000);
  }
  samples.sort((a, b) => a - b);
  const q = (p: number): number => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))]!;
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return { name, runs: samples.length, warmRuns, meanUs: mean, p50Us: q(0.5), p95Us: q(0.95) };
}

export function printRow(r: { name: string; runs: number; meanUs: number; p50Us: number; p95Us: number }): void {
  const f = (us: number): string =>
    (us >= 1_000 ? `${(us / 1_000).toFixed(2)} ms` : `${us.toFixed(1)} µs`).padStart(10);
  console.log(
    `${r.name.padEnd(52)} runs ${String(r.runs).padStart(7)}  mean ${f(r.meanUs)}  p50 ${f(r.p50Us)}  p95 ${f(r.p95Us)}`,
  );
}

/** The one-, five- and fifteen-minute load averages, to print beside every figure. */
export const loadAverage = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A command line to time: Node and its arguments. */
export interface NodeVariant {
  readonly name: string;
  readonly args: readonly string[];
  /** Command lines run at the same time as `args`, each a Node process of its own: the timing is of them all (wall until the last ends, CPU summed). */
  readonly beside?: readonly (readonly string[])[];
  /** The folder it runs in, when not the one `alternate` is given. */
  readonly cwd?: string;
}

export interface NodeTiming {
  /** Seconds of wall time, and of CPU (the child's user + system). */
  readonly wall: number;
  readonly cpu: number;
  /** The load average when it ended. */
  readonly load: string;
}

const quoted = (arg: string): string => `'${arg.replaceAll("'", `'\\''`)}'`;

/**
 * Wall and CPU seconds of one Node child run in `cwd`, from GNU time's report on stderr; with
 * `beside`, those command lines run at once with it, under one shell, and GNU time reports the
 * wall time until the last ends and the CPU of them all (a shell's waited-for children count).
 */
export function timeNode(
  args: readonly string[],
  cwd: string,
  beside: readonly (readonly string[])[] = [],
): NodeTiming {
  const command =
    beside.length === 0
      ? [process.execPath, ...args]
      : [
          '/bin/sh',
          '-c',
          `${[args, ...beside].map((a) => [process.execPath, ...a].map(quoted).join(' ') + ' >/dev/null &').join(' ')} wait`,
        ];
  const r = spawnSync('/usr/bin/time', ['-f', 'BENCH %e %U %S', ...command], { cwd, encoding: 'utf8' });
  const line = r.stderr.split('\n').find((l) => l.startsWith('BENCH '));
  if (line === undefined) throw new Error(`no timing for ${args.join(' ')}: ${r.stderr.slice(-500)}`);
  const [, wall, user, sys] = line.split(' ').map(Number) as [number, number, number, number];
  return { wall, cpu: user + sys, load: loadAverage() };
}

/**
 * Each variant once per round, the variants alternating, so the machine's other load weighs on
 * each alike; `each` sees every timing as it comes. Returns the samples per variant.
 */
export function alternate(
  variants: readonly NodeVariant[],
  rounds: number,
  cwd: string,
  each?: (round: number, variant: NodeVariant, t: NodeTiming) => void,
): { readonly wall: number[]; readonly cpu: number[] }[] {
  const samples = variants.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
  for (let round = 0; round < rounds; round++) {
    variants.forEach((v, i) => {
      const t = timeNode(v.args, v.cwd ?? cwd, v.beside);
      samples[i]!.wall.push(t.wall);
      samples[i]!.cpu.push(t.cpu);
      each?.(round, v, t);
    });
  }
  return samples;
}

/** Prints each variant's medians (and minimums) of wall and CPU, its name padded to `width`. */
export function printMedians(
  variants: readonly NodeVariant[],
  samples: readonly { readonly wall: number[]; readonly cpu: number[] }[],
  width: number,
): void {
  variants.forEach((v, i) => {
    const { wall, cpu } = samples[i]!;
    console.log(
      `  ${v.name.padEnd(width)} wall p50 ${median(wall).toFixed(2)} s (min ${Math.min(...wall).toFixed(2)})   cpu p50 ${median(cpu).toFixed(2)} s (min ${Math.min(...cpu).toFixed(2)})`,
    );
  });
}

/**
 * The variants, and with `BEFORE` set (the root of another checkout, built: main's `dist/` in a
 * temporary copy, say) each one again run from there, right after it, for before/after figures
 * from one process. `bin` is this checkout's `bin/faultline.js`, replaced in the twins' arguments.
 */
export function withBefore(variants: readonly NodeVariant[], bin: string): readonly NodeVariant[] {
  const before = process.env['BEFORE'];
  if (before === undefined || before === '') return variants;
  const otherBin = join(before, 'bin', 'faultline.js');
  return variants.flatMap((v) =>
    v.args.includes(bin)
      ? [v, { name: `before: ${v.name}`, args: v.args.map((a) => (a === bin ? otherBin : a)) }]
      : [v],
  );
}

/** A function measured in process beside others. */
export interface InProcessSide {
  readonly name: string;
  readonly fn: () => Promise<unknown>;
}

/**
 * Sides measured in one process, alternating for `rounds` rounds of `ms` each so that drift in
 * the machine's load falls on all of them alike; each round prints its line. Returns each side's
 * medians: CPU per call (warm-up calls counted) and wall p50, in µs. Each round warms up for its
 * twenty calls only: the rounds before it warmed every side alike.
 */
export async function alternateInProcess(
  sides: readonly InProcessSide[],
  rounds: number,
  ms: number,
): Promise<{ readonly cpu: number; readonly p50: number }[]> {
  const cpu = sides.map(() => [] as number[]);
  const p50 = sides.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    for (const [i, s] of sides.entries()) {
      const c0 = process.cpuUsage();
      const row = await measure(s.name, s.fn, ms, 0);
      const c = process.cpuUsage(c0);
      cpu[i]!.push((c.user + c.system) / (row.runs + row.warmRuns));
      p50[i]!.push(row.p50Us);
    }
    console.log(
      `  round ${round + 1}: ${sides.map((s, i) => `${s.name} ${cpu[i]!.at(-1)!.toFixed(0)} µs CPU, p50 ${p50[i]!.at(-1)!.toFixed(0)} µs`).join('; ')}; load ${loadAverage()}`,
    );
  }
  return sides.map((_, i) => ({ cpu: median(cpu[i]!), p50: median(p50[i]!) }));
}
