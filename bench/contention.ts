/**
 * Wall time of a contention comparison at scale: 1,000 agents × 5 configurations, one trial
 * each, on the built-in optimistic-concurrency scenario (writers spread over 50 records).
 * Prints numbers; asserts nothing.
 *   npm run bench:contention            (AGENTS=… to change the crowd)
 */
import { wallMs } from '../src/core/clock/RealClock.js';
import { compareContention } from '../src/runner/contention/compareContention.js';
import { parseContentionScenario } from '../src/runner/contention/ContentionScenario.js';
import { loadContentionConfigs } from '../src/runner/contention/library.js';

const agents = Number(process.env['AGENTS'] ?? 1_000);
const CONFIGS = ['exponential-no-jitter', 'full-jitter', 'decorrelated-jitter', 'cockatiel-decorrelated', 'p-retry-randomized'];

const scenario = parseContentionScenario({
  name: 'bench-optimistic',
  agents,
  service: { kind: 'optimistic', records: 50, transactionMs: 10 },
  budget: { maxDeliveriesPerCall: 10 },
});
const configs = await loadContentionConfigs(CONFIGS);

console.log(`contention: ${agents} agents × ${configs.length} configurations on one optimistic-concurrency service (${process.version}, ${process.platform}/${process.arch})`);
const started = wallMs();
let last = started;
const comparison = await compareContention({
  scenario,
  configs,
  seed: 1,
  onTrial: (t) => {
    const now = wallMs();
    const m = t.stats;
    console.log(`  ${t.config.padEnd(24)} ${String(Math.round(now - last)).padStart(6)} ms wall  ${String(t.events).padStart(7)} events  ${String(m.deliveries).padStart(6)} deliveries  ${(t.endMs / 1000).toFixed(1).padStart(7)} s virtual`);
    last = now;
  },
});
const total = wallMs() - started;
const runs = comparison.results.reduce((n, r) => n + r.metrics.agents, 0);
console.log(`total ${Math.round(total)} ms wall for ${runs} agent runs (${((total * 1000) / runs).toFixed(0)} µs per agent)`);
