/**
 * Command tools under timeout (R19): trials whose command forks a grandchild and sleeps past
 * its timeout. Prints wall time per trial and the processes left afterwards; asserts nothing.
 *   npm run bench commands            (TRIALS=1000 PARALLEL=25 TIMEOUT_MS=250)
 */
import { defineScenario, rulebookDefault, runTrial } from '../src/public/index.js';
import { builds, markedProcesses } from '../test/command/buildService.js';

const trials = Number(process.env['TRIALS'] ?? 1000);
const parallel = Number(process.env['PARALLEL'] ?? 25);
const timeoutMs = Number(process.env['TIMEOUT_MS'] ?? 250);

const scenario = defineScenario({
  name: 'bench-build-times-out',
  services: [builds],
  world: { builds: { timeoutMs } },
  checks: ['process-cleanup'],
  agent: {
    kind: 'scripted',
    task: 'Build the app target.',
    plan: { steps: [{ tool: 'run_build', input: { target: 'app' } }] },
  },
});

const before = markedProcesses();
const start = performance.now();
let failed = 0;
let commands = 0;
for (let first = 0; first < trials; first += parallel) {
  const batch = await Promise.all(
    Array.from({ length: Math.min(parallel, trials - first) }, (_, i) =>
      runTrial({ scenario, config: rulebookDefault, runSeed: 1, trialIndex: first + i }),
    ),
  );
  failed += batch.filter((t) => t.status === 'failed').length;
  commands += batch.reduce((n, t) => n + t.history.filter((e) => e.type === 'command_end').length, 0);
}
const ms = performance.now() - start;
console.log(
  `${trials} trials (${parallel} at a time, ${timeoutMs} ms timeout): ${commands} commands, ${(ms / 1000).toFixed(1)} s, ${(ms / trials).toFixed(1)} ms per trial`,
);
console.log(`process-cleanup failures: ${failed}; marked processes before ${before}, after ${markedProcesses()}`);
