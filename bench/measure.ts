/** Runs `fn` repeatedly for about `ms` of wall time (after a warm-up) and reports per-call figures. */
export async function measure(name: string, fn: () => Promise<unknown>, ms = 1_000): Promise<{ name: string; runs: number; meanUs: number; p50Us: number; p95Us: number }> {
  for (let i = 0; i < 20; i++) await fn();
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
  return { name, runs: samples.length, meanUs: mean, p50Us: q(0.5), p95Us: q(0.95) };
}

export function printRow(r: { name: string; runs: number; meanUs: number; p50Us: number; p95Us: number }): void {
  const f = (us: number): string => (us >= 1_000 ? `${(us / 1_000).toFixed(2)} ms` : `${us.toFixed(1)} µs`).padStart(10);
  console.log(`${r.name.padEnd(52)} runs ${String(r.runs).padStart(7)}  mean ${f(r.meanUs)}  p50 ${f(r.p50Us)}  p95 ${f(r.p95Us)}`);
}
