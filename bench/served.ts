/**
 * The served path's cost per request beside the in-process one: the same helpdesk scenario, the
 * same REQUESTS fetches per trial (POST /tickets, one Idempotency-Key each, no faults), made by
 *   1. an `http` agent in faultline's process, its fetch answered by msw on the virtual clock;
 *   2. a `command` agent, a tiny Node script (bench/servedAgent.mjs) started per trial, its fetch
 *      answered by the world served on 127.0.0.1 on the wall clock.
 * Each agent times its own request loop; the trial's wall time adds the world, the checkers and,
 * for the command agent, starting a process. Prints numbers side by side, with the machine's load
 * average (a shared machine's load moves every figure); asserts nothing.
 *   npm run bench served            (TRIALS=5 REQUESTS=50)
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineScenario } from '../src/scenario/scenario.js';
import { runTrial } from '../src/runner/trial.js';
import { rulebookDefault } from '../src/runtime/config.js';
import { loadServiceModule } from '../src/scenario/loadService.js';

const trials = Number(process.env['TRIALS'] ?? 5);
const requests = Number(process.env['REQUESTS'] ?? 50);
const helpdesk = await loadServiceModule(
  fileURLToPath(new URL('../scenarios/examples/helpdesk/code/helpdesk.service.ts', import.meta.url)),
);
const goal = { effects: { 'ticket.opened': requests } };

let inProcessLoopMs = 0;
const inProcess = defineScenario({
  name: 'bench-served-in-process',
  services: [helpdesk],
  agent: {
    kind: 'http',
    task: 'Open tickets',
    run: async ({ services }) => {
      const base = services['helpdesk']!.baseUrl;
      const t0 = performance.now();
      let ok = 0;
      for (let i = 0; i < requests; i++) {
        const res = await fetch(`${base}/tickets`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': `open-req-${i}` },
          body: JSON.stringify({ requestId: `req-${i}`, subject: 'x' }),
        });
        await res.arrayBuffer();
        if (res.ok) ok++;
      }
      inProcessLoopMs = performance.now() - t0;
      return { outcome: ok === requests ? 'completed' : 'failed' };
    },
  },
  goal,
});

const served = defineScenario({
  name: 'bench-served-command',
  services: [helpdesk],
  agent: {
    kind: 'command',
    task: 'Open tickets',
    argv: [process.execPath, fileURLToPath(new URL('./servedAgent.mjs', import.meta.url))],
    env: { REQUESTS: String(requests) },
    timeoutMs: 60_000,
  },
  goal,
});

interface Sample {
  readonly trialMs: number;
  readonly loopMs: number;
}

async function sample(
  scenario: typeof inProcess,
  trialIndex: number,
  loopOf: (history: readonly { type: string; message?: string }[]) => number,
): Promise<Sample> {
  const t0 = performance.now();
  const record = await runTrial({ scenario, config: rulebookDefault, runSeed: 1, trialIndex });
  const trialMs = performance.now() - t0;
  if (record.status !== 'passed')
    throw new Error(
      `${scenario.name} trial ${trialIndex} failed: ${JSON.stringify(record.checks.filter((c) => c.verdict.valid !== true))}`,
    );
  return { trialMs, loopMs: loopOf(record.history as readonly { type: string; message?: string }[]) };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const loadBefore = load();
// One warm-up trial each: module loading and the first spawn are not the steady cost.
await sample(inProcess, 0, () => inProcessLoopMs);
const reported = (history: readonly { type: string; message?: string }[]): number =>
  Number(/loopMs=([\d.]+)/.exec(history.find((e) => e.type === 'agent_end')?.message ?? '')?.[1] ?? NaN);
await sample(served, 0, reported);
const a: Sample[] = [];
const b: Sample[] = [];
for (let i = 1; i <= trials; i++) {
  a.push(await sample(inProcess, i, () => inProcessLoopMs));
  b.push(await sample(served, i, reported));
}

const row = (name: string, s: readonly Sample[]): [string, number, number] => [
  name,
  median(s.map((x) => x.loopMs)) / requests,
  median(s.map((x) => x.trialMs)),
];
const rows = [
  row('in process (http agent, msw, virtual clock)', a),
  row('served (command agent, 127.0.0.1, wall clock)', b),
];
const us = (ms: number): string => `${(ms * 1000).toFixed(0)} µs`.padStart(10);
const msf = (ms: number): string => `${ms.toFixed(1)} ms`.padStart(10);
console.log(
  `served path vs in process: ${trials} trials each (median), ${requests} requests per trial; load average ${loadBefore} before, ${load()} after (${(await import('node:os')).cpus().length} cores)`,
);
console.log(`${'agent'.padEnd(48)} ${'per request'.padStart(12)} ${'per trial'.padStart(12)}`);
for (const [name, perRequest, perTrial] of rows)
  console.log(`${name.padEnd(48)} ${us(perRequest).padStart(12)} ${msf(perTrial).padStart(12)}`);
const [x, y] = rows as [[string, number, number], [string, number, number]];
console.log(
  `${'ratio served / in process'.padEnd(48)} ${`${(y[1] / x[1]).toFixed(2)}x`.padStart(12)} ${`${(y[2] / x[2]).toFixed(2)}x`.padStart(12)}`,
);
console.log(
  "per request: the agent's own request loop / requests; per trial: runTrial's wall time (world, checkers, and for the command agent its process start and exit)",
);
