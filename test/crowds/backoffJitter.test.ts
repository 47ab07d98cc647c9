import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonReport, type JsonReport } from '../../src/report/json.js';
import { faultline, tempDir } from '../cli/faultline.js';
import { inProcess } from '../cli/inProcess.js';
import { trialFlags } from '../cli/trialFlags.js';

/**
 * AWS's "Exponential Backoff and Jitter" experiment as the built-in `backoff-jitter-occ`:
 * 100 clients, one record, N(10 ms, 2 ms) on every network leg, base 5 ms, cap 2 s. Run the
 * way a user runs it, through the binary (the first seed; the others through the same entry in this
 * process, ../cli/inProcess.ts, which spares each a Node start), and read from the JSON report.
 */
const STRATEGIES = [
  'occ-no-backoff',
  'occ-exponential',
  'occ-equal-jitter',
  'occ-full-jitter',
  'occ-decorrelated-jitter',
];
const SEEDS = [1, 2, 3];

interface Figures {
  readonly work: number;
  readonly p95: number;
  readonly max: number;
  readonly success: number;
}

let dir: Awaited<ReturnType<typeof tempDir>>;
const bySeed = new Map<number, Map<string, Figures>>();

async function compareAt(seed: number): Promise<JsonReport> {
  const out = `seed-${seed}`;
  const r = await (seed === SEEDS[0] ? faultline : inProcess)(
    [
      'compare',
      'backoff-jitter-occ',
      ...STRATEGIES.flatMap((c) => ['--config', c]),
      ...trialFlags({ k: 1, seed, reporters: ['json'], out }),
    ],
    { cwd: dir.path },
  );
  expect(r.code, r.stderr).toBe(0);
  return parseJsonReport(await readFile(join(dir.path, out, 'faultline.json'), 'utf8'));
}

beforeAll(async () => {
  dir = await tempDir('backoff-jitter');
  for (const seed of SEEDS) {
    const report = await compareAt(seed);
    bySeed.set(
      seed,
      new Map(
        report.cells.map((c) => {
          const crowd = c.metrics.crowd!;
          return [
            c.config,
            {
              work: c.metrics.deliveries,
              p95: crowd.completionMs.p95,
              max: crowd.completionMs.max,
              success: crowd.successRate,
            },
          ];
        }),
      ),
    );
  }
});

afterAll(() => dir.cleanup());

const at = (seed: number, config: string): Figures => {
  const f = bySeed.get(seed)?.get(config);
  if (!f) throw new Error(`no figures for ${config} at seed ${seed}`);
  return f;
};

describe('the backoff and jitter experiment over a network with variance', () => {
  it('every strategy gets all 100 writers through: the network variance breaks even the no-jitter lockstep', () => {
    for (const seed of SEEDS)
      for (const config of STRATEGIES) expect([seed, config, at(seed, config).success]).toEqual([seed, config, 1]);
  });

  it('exponential backoff without jitter is no longer in lockstep: its work and completion time differ across seeds', () => {
    const runs = SEEDS.map((seed) => at(seed, 'occ-exponential'));
    expect(new Set(runs.map((r) => r.work)).size).toBe(SEEDS.length);
    expect(new Set(runs.map((r) => r.max)).size).toBe(SEEDS.length);
  });

  it('keeps the post ordering at every seed: no backoff works most, no jitter takes longest, full jitter works least, equal jitter is slowest of the jittered', () => {
    for (const seed of SEEDS) {
      const [none, expo, equal, full, decorrelated] = STRATEGIES.map((c) => at(seed, c));
      // Work: no backoff > no jitter > every jittered strategy; full jitter the least of all.
      expect(none!.work, `seed ${seed}`).toBeGreaterThan(expo!.work);
      for (const jittered of [equal!, full!, decorrelated!])
        expect(expo!.work, `seed ${seed}`).toBeGreaterThan(1.5 * jittered.work);
      expect(full!.work, `seed ${seed}`).toBeLessThan(equal!.work);
      expect(full!.work, `seed ${seed}`).toBeLessThan(decorrelated!.work);
      // Time: no jitter is far the slowest; among the jittered, decorrelated < full < equal at p95.
      for (const jittered of [none!, equal!, full!, decorrelated!])
        expect(expo!.p95, `seed ${seed}`).toBeGreaterThan(5 * jittered.p95);
      expect(decorrelated!.p95, `seed ${seed}`).toBeLessThan(full!.p95);
      expect(full!.p95, `seed ${seed}`).toBeLessThan(equal!.p95);
    }
  });
});
