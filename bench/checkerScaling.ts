/**
 * How each checker's time grows with a crowd: one trial of each crowd scenario at 250, 1,000
 * and 4,000 agents (SIZES=…), every checker timed inside it, and the growth exponent from the
 * two largest sizes (log of the time ratio over log of the size ratio: 1 for a checker that
 * reads each event once, 2 for one that reads every event per agent). A checker that looked
 * through the whole history, ledger or claim list once per claim or per duplicate made honesty
 * and duplicates quadratic (6,183 and 744 ms at 4,000 agents of jobs-outage and jobs-overload); this prints
 * the next one.
 * Tests never time anything, so the class is watched here. Asserts nothing.
 *   npm run build && npm run bench checkerScaling      (SCENARIOS=jobs-outage,… SIZES=250,1000,4000)
 */
import { BUILTIN_CHECKERS } from '../src/checks/index.js';
import { loadConfigs, loadScenarios } from '../src/scenario/library.js';
import { runTrial } from '../src/runner/trial.js';
import { loadAverage } from './measure.js';

const sizes = (process.env['SIZES'] ?? '250,1000,4000').split(',').map(Number);
const names = (process.env['SCENARIOS'] ?? 'jobs-outage,jobs-overload,metastable-jobs,optimistic-100').split(',');
const [config] = await loadConfigs(['rulebook']);

// Each checker's check, timed where the trial calls it: the scenario's own checkers, as a run judges them.
const spent = new Map<string, number>();
for (const checker of BUILTIN_CHECKERS) {
  const check = checker.check.bind(checker);
  (checker as { check: typeof check }).check = (...args) => {
    const t0 = performance.now();
    try {
      return check(...args);
    } finally {
      spent.set(checker.name, (spent.get(checker.name) ?? 0) + performance.now() - t0);
    }
  };
}

console.log(`checker time by crowd size, rulebook, one trial each (${process.version}); load average ${loadAverage()}`);
for (const name of names) {
  const [scenario] = await loadScenarios([name]);
  const bySize: Map<string, number>[] = [];
  for (const agents of sizes) {
    spent.clear();
    const t0 = performance.now();
    const trial = await runTrial({ scenario: { ...scenario!, agents }, config: config!, runSeed: 1, trialIndex: 0 });
    const wall = performance.now() - t0;
    bySize.push(new Map(spent));
    console.log(
      `  ${name} × ${String(agents).padStart(5)} agents: ${wall.toFixed(0).padStart(6)} ms, ${trial.history.length} events; ${[...spent].map(([c, ms]) => `${c} ${ms.toFixed(1)}`).join(', ')}`,
    );
  }
  const [mid, big] = bySize.slice(-2);
  const growth = Math.log(sizes.at(-1)! / sizes.at(-2)!);
  const exponents = [...big!].map(([c, ms]) => {
    const e = Math.log(ms / Math.max(mid!.get(c) ?? 0, 0.05)) / growth;
    // Below a few ms a checker's time is noise (a collection, a compile), not growth.
    return `${c} ${ms < 5 ? '-' : e.toFixed(1)}${ms >= 20 && e > 1.5 ? ' (super-linear?)' : ''}`;
  });
  console.log(
    `  # growth exponent ${sizes.at(-2)} → ${sizes.at(-1)}: ${exponents.join(', ')}; load average ${loadAverage()}`,
  );
}
