/**
 * `explore` throughput: fault plans per second over the built-in library under the rulebook
 * configuration (one trial per plan, fast-check's generation and shrinking included).
 * Prints the figures; asserts nothing.
 *   npm run bench explore            (RUNS=200 SEED=1)
 */
import { explorePlans } from '../src/explore/explorePlans.js';
import { loadConfigs, loadScenarios } from '../src/scenario/library.js';

const runs = Number(process.env['RUNS'] ?? 200);
const seed = Number(process.env['SEED'] ?? 1);
const [config] = await loadConfigs(['rulebook']);
let plans = 0;
const start = performance.now();
for (const scenario of await loadScenarios()) {
  const t0 = performance.now();
  let trials = 0;
  const r = await explorePlans({ scenario, config: config!, runs, seed, onPlan: () => void trials++ });
  plans += trials;
  const found =
    r.kind === 'failed'
      ? `${r.baseline ? `fails on its own (${r.baseline.classes.join(', ')}); ` : ''}${r.runs} plans, ${r.findings.map((f) => `${f.failure} at plan ${f.foundAt} shrunk in ${f.shrinks} steps to ${f.plan.length} rule(s)`).join('; ') || 'no other class'}`
      : r.kind;
  console.log(
    `${scenario.name.padEnd(38)} ${String(trials).padStart(4)} trials ${(performance.now() - t0).toFixed(0).padStart(6)} ms  ${found}`,
  );
}
const s = (performance.now() - start) / 1000;
console.log(`${plans} plans (trials) in ${s.toFixed(1)} s: ${(plans / s).toFixed(0)} plans per second`);
