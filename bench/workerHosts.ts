/**
 * What a worker in a process of its own costs beside a plain worker thread, for a scenario of
 * the user's code (a TypeScript function agent, loaded through tsx): the start of one worker
 * (tsx, faultline's modules, the scenario), the wall time per trial through one worker (each
 * request and answer crosses a process boundary as well as a thread's), and `runMatrix` on 0, 1
 * and 2 workers as a run of user code now runs (workers in processes). Wall times; the load
 * average is printed beside them, since on a busy machine they mean little alone.
 * Prints numbers; asserts nothing.
 *   npm run bench workerHosts        (K=… trials per worker; STARTS=… starts per host)
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { wallMs } from '../src/core/clock/RealClock.js';
import { loadConfigs, loadScenarioFile } from '../src/scenario/library.js';
import { TrialWorker } from '../src/runner/pool/TrialWorker.js';
import { runMatrix } from '../src/runner/run.js';

const K = Number(process.env['K'] ?? 300);
const STARTS = Number(process.env['STARTS'] ?? 5);

const AGENT = `type Tools = Record<string, (input: unknown) => Promise<{ kind: string }>>;
export default {
  name: 'user-agent',
  agent: {
    kind: 'function',
    task: 'create an order',
    fn: async ({ tools }: { tools: Tools }) => {
      await tools['create_order']!({ clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 });
      return { outcome: 'completed', claims: [{ subject: 'orders:ref-1', status: 'succeeded' }] };
    },
  },
  goal: { effects: { 'order.created': 1 } },
};
`;

const dir = await mkdtemp(join(tmpdir(), 'faultline-bench-hosts-'));
try {
  const file = join(dir, 'user-agent.ts');
  await writeFile(file, AGENT);
  const configs = await loadConfigs(['rulebook']);
  const setup = { scenarioFiles: [file], configs, runSeed: 1, keepFailures: 0 };
  const refs = { scenario: file, config: 'rulebook' };
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const load = (): string => `load ${loadavg()[0]!.toFixed(1)}`;

  const figures = new Map<string, { start: number; perTrial: number }>();
  for (const ownProcess of [false, true, false, true]) {
    const host = ownProcess ? 'own process' : 'thread';
    const starts: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      const t0 = wallMs();
      const worker = await TrialWorker.start(setup, { trialTimeoutMs: 60_000, heapMb: 512, ownProcess });
      starts.push(wallMs() - t0);
      await worker.stop();
    }
    const worker = await TrialWorker.start(setup, { trialTimeoutMs: 60_000, heapMb: 512, ownProcess });
    const t0 = wallMs();
    const answers = await Promise.all(
      Array.from({ length: K }, (_, trialIndex) => worker.run({ scenario: 0, config: 0, trialIndex, refs })),
    );
    const perTrial = ((wallMs() - t0) * 1_000) / K;
    await worker.stop();
    if (answers.some((a) => a.kind !== 'result')) throw new Error(`a trial on a ${host} worker did not answer`);
    const best = figures.get(host);
    figures.set(host, {
      start: Math.min(best?.start ?? Infinity, median(starts)),
      perTrial: Math.min(best?.perTrial ?? Infinity, perTrial),
    });
    console.log(
      `${host.padEnd(12)}start ${median(starts).toFixed(0).padStart(5)} ms (median of ${STARTS}); ${K} trials on it: ${perTrial.toFixed(0).padStart(5)} µs per trial  (${load()})`,
    );
  }
  const thread = figures.get('thread')!;
  const own = figures.get('own process')!;
  console.log(
    `# own process vs thread (best of two each): start ${(own.start / thread.start).toFixed(2)}x (+${(own.start - thread.start).toFixed(0)} ms), per trial ${(own.perTrial / thread.perTrial).toFixed(2)}x`,
  );

  const scenario = await loadScenarioFile(file);
  const walls = new Map<number, number>();
  for (const workers of [0, 1, 2, 1, 2]) {
    const t0 = wallMs();
    const run = await runMatrix({ scenarios: [scenario], configs, k: K * 4, seed: 1, workers, keepFailures: 5 });
    const wall = wallMs() - t0;
    if (run.cells[0]!.metrics.trials !== K * 4) throw new Error('not every trial ran');
    walls.set(workers, Math.min(walls.get(workers) ?? Infinity, wall));
    console.log(
      `runMatrix, ${workers === 0 ? 'in process' : `${workers} worker${workers > 1 ? 's' : ''} (own processes)`}: ${K * 4} trials in ${wall.toFixed(0)} ms  (${load()})`,
    );
  }
  console.log(
    `# 2 workers vs in process: ${(walls.get(0)! / walls.get(2)!).toFixed(2)}x; 2 workers vs 1: ${(walls.get(1)! / walls.get(2)!).toFixed(2)}x`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
