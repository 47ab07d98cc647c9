/**
 * Peak resident memory of a large run, as the CLI does it (workers, --keep-failures 5, every
 * report rendered and written), in a fresh process per size, so each peak is its own.
 * Prints trials, wall time, peak RSS and report size per size, and the slope between them;
 * asserts nothing.
 *   npm run bench rss                 (SIZES=10000,30000,100000 WORKERS=2)
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const sizes = (process.env['SIZES'] ?? '10000,30000,100000').split(',').map(Number);
const child = fileURLToPath(new URL('./rssRun.ts', import.meta.url));
const rows: { trials: number; rssMb: number }[] = [];
for (const size of sizes) {
  const out = spawnSync(process.execPath, ['--import', 'tsx', child, String(size)], {
    encoding: 'utf8',
    env: process.env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (out.status !== 0) throw new Error(`the run of ${size} trials failed (exit ${out.status})`);
  const row = JSON.parse(out.stdout.trim().split('\n').at(-1)!) as {
    trials: number;
    wallMs: number;
    rssMb: number;
    jsonMb: number;
  };
  rows.push(row);
  console.log(
    `${String(row.trials).padStart(7)} trials in ${(row.wallMs / 1000).toFixed(1).padStart(6)} s: peak RSS ${row.rssMb.toFixed(0).padStart(4)} MB, faultline.json ${row.jsonMb.toFixed(1)} MB`,
  );
}
for (let i = 1; i < rows.length; i++) {
  const a = rows[i - 1]!;
  const b = rows[i]!;
  console.log(
    `# slope ${a.trials} → ${b.trials}: ${(((b.rssMb - a.rssMb) / (b.trials - a.trials)) * 1_000_000).toFixed(0)} bytes of peak RSS per trial`,
  );
}
