/**
 * What the confidence intervals cost: one cell's exact interval (two Beta quantiles), a
 * configuration's Monte Carlo over its scenarios (4,000 draws per bound), and the trial count a
 * bound gate needs. Prints milliseconds per call; asserts nothing. Each call is made on fresh
 * counts, so the memo of configuration intervals does not hide the work.
 *   npm run bench intervals            (CALLS=200)
 */
import { parseGate, trialsNeeded } from '../src/stats/gates.js';
import { passIntervalCurves, passIntervalsAt, proportionInterval } from '../src/stats/intervals.js';

const calls = Number(process.env['CALLS'] ?? 200);

function perCall(label: string, f: (i: number) => unknown): void {
  const start = performance.now();
  for (let i = 0; i < calls; i++) f(i);
  console.log(`${label.padEnd(62)} ${((performance.now() - start) / calls).toFixed(3)} ms/call`);
}

perCall('one cell, 4 trials: exact interval', (i) => proportionInterval(i % 5, 4));
perCall('one cell, 1,000 trials: exact interval', (i) => proportionInterval(900 + (i % 100), 1000));
// The i-th call's counts: digit t of i in base `base` is the failures of scenario t, so no two calls share counts.
const counts = (i: number, scenarios: number, n: number, base: number) =>
  Array.from({ length: scenarios }, (_, t) => ({ n, c: n - (Math.floor(i / base ** t) % base) }));

perCall('15 scenarios × 4 trials: pass^1 and pass^4 (Monte Carlo)', (i) =>
  passIntervalsAt(counts(i, 15, 4, 5), [1, 4]),
);
perCall('15 scenarios × 4 trials: the whole curve k = 1..4', (i) => passIntervalCurves(counts(i + calls, 15, 4, 5)));
perCall('5 scenarios × 100 trials: the whole curve k = 1..100', (i) => passIntervalCurves(counts(i, 5, 100, 10)));
const gate = parseGate('pass^4>=0.9@95%');
perCall('trials pass^4>=0.9@95% needs from 4 of 4 (search)', (i) => trialsNeeded(gate, 4, 4 + (i % 3), 4 + (i % 3)));
