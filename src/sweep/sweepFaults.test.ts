import { describe, expect, it } from 'vitest';
import { Rng } from '../core/rng.js';
import { pickRule, type RequestFacts } from '../faults/match.js';
import {
  faultLabel,
  parseSweepCrash,
  parseSweepFault,
  pointSeed,
  sweepPlan,
  sweepSeries,
  withCrashPoints,
  type SweepFault,
  type SweepSeries,
} from './sweepFaults.js';

const fault = (text: string): SweepFault => {
  const r = parseSweepFault(text);
  if (r.kind === 'error') throw new Error(r.message);
  return r.fault;
};
/** The one series `faults` make. */
function only(faults: readonly SweepFault[], mix: boolean): SweepSeries {
  const series = sweepSeries(faults, mix);
  if (typeof series === 'string' || series.length !== 1)
    throw new Error(`expected one series, got ${JSON.stringify(series)}`);
  return series[0]!;
}
const facts = (purpose: RequestFacts['purpose']): RequestFacts => ({
  tool: 'send_email',
  purpose,
  call: 1,
  attempt: 1,
  elapsedMs: 0,
});

/** How often each rule of `plan` applies over `n` deliveries drawn from one seeded rng. */
function hitRates(plan: ReturnType<typeof sweepPlan>, n: number, purpose: RequestFacts['purpose'] = 'call'): number[] {
  const rng = new Rng(7);
  const hits = plan.map(() => 0);
  for (let i = 0; i < n; i++) {
    const picked = pickRule(plan, facts(purpose), [], rng);
    if (picked) hits[picked.index]!++;
  }
  return hits.map((h) => h / n);
}

describe('sweep faults', () => {
  it('names a kind by its defaults, or takes a whole fault inline', () => {
    expect(fault('rate_limit')).toEqual({ fault: { kind: 'rate_limit' }, arg: 'rate_limit', label: 'rate_limit' });
    expect(fault('unavailable')).toEqual({
      fault: { kind: 'unavailable', status: 503 },
      arg: 'unavailable',
      label: 'unavailable',
    });
    expect(fault('{kind: unavailable, status: 502}')).toEqual({
      fault: { kind: 'unavailable', status: 502 },
      arg: '{"kind":"unavailable","status":502}',
      label: 'unavailable(status=502)',
    });
    // The inline form of a kind's default is that kind.
    expect(fault('{"kind": "unavailable", "status": 503}').label).toBe('unavailable');
    expect(faultLabel({ kind: 'rate_limit', retryAfter: 5 })).toBe('rate_limit(retryAfter=5)');
  });

  it('refuses an unknown kind or a bad inline fault, listing what it takes', () => {
    expect(parseSweepFault('rate-limit')).toEqual({
      kind: 'error',
      message: expect.stringMatching(
        /^expected a fault kind \(one of: timeout, latency, .*rate_limit.*\) or a fault inline/,
      ),
    });
    expect(parseSweepFault('{kind: unavailable, status: 418}')).toEqual({
      kind: 'error',
      message: expect.stringMatching(/^the inline fault is not a fault: .*status/),
    });
    expect(parseSweepFault('{kind: [')).toEqual({
      kind: 'error',
      message: expect.stringMatching(/^the inline fault is not YAML or JSON/),
    });
  });

  it('makes one series per fault, or one of all with mix; a fault twice is refused', () => {
    const [a, b] = [fault('rate_limit'), fault('unavailable')];
    expect(sweepSeries([a, b], false)).toEqual([
      { label: 'rate_limit', faults: [a], mix: false },
      { label: 'unavailable', faults: [b], mix: false },
    ]);
    expect(sweepSeries([a, b], true)).toEqual([{ label: 'mix(rate_limit+unavailable)', faults: [a, b], mix: true }]);
    expect(sweepSeries([a], true)).toEqual([{ label: 'rate_limit', faults: [a], mix: false }]);
    expect(sweepSeries([a, a], false)).toBe('--fault rate_limit is given twice');
  });

  it('hits each delivery with probability λ, and a mix of n kinds with λ/n each', () => {
    const [rate] = hitRates(sweepPlan(only([fault('rate_limit')], false), 0.3, 'call'), 20_000);
    expect(rate).toBeCloseTo(0.3, 1);
    const plan = sweepPlan(only([fault('rate_limit'), fault('unavailable'), fault('timeout')], true), 0.6, 'call');
    // First match wins: each later rule draws with the probability left to it, (λ/n) / (1 - i·λ/n).
    [0.2, 0.25, 1 / 3].forEach((p, i) => expect(plan[i]!.match.probability).toBeCloseTo(p, 12));
    const rates = hitRates(plan, 30_000);
    for (const r of rates) expect(r).toBeCloseTo(0.2, 1);
    expect(rates.reduce((x, y) => x + y, 0)).toBeCloseTo(0.6, 1);
  });

  it('leaves status queries alone unless told to hit them, and never faults at λ = 0', () => {
    const single = only([fault('rate_limit')], false);
    expect(hitRates(sweepPlan(single, 0.5, 'call'), 1000, 'status')).toEqual([0]);
    expect(hitRates(sweepPlan(single, 0.5, 'any'), 1000, 'status')[0]).toBeGreaterThan(0.4);
    expect(hitRates(sweepPlan(single, 0, 'any'), 1000)).toEqual([0]);
  });

  it('gives every point a seed of its own, a function of the seed, the series and λ only', () => {
    const seeds = [0, 0.1, 0.2, 0.3].map((l) => pointSeed(1, 'rate_limit', l));
    expect(new Set(seeds).size).toBe(4);
    expect(pointSeed(1, 'rate_limit', 0.2)).toBe(seeds[2]);
    expect(pointSeed(1, 'unavailable', 0.2)).not.toBe(seeds[2]);
    expect(pointSeed(2, 'rate_limit', 0.2)).not.toBe(seeds[2]);
  });

  it('--crash: a crash point as crash.agent takes it, each series again under each (seeded apart); bad ones named by path', () => {
    const ok = parseSweepCrash('{afterEffectOf: create_order, nth: 2}');
    const call = parseSweepCrash('{afterCall: 2}');
    if (ok.kind !== 'ok' || call.kind !== 'ok') throw new Error('expected two crash points');
    const series = sweepSeries([fault('rate_limit'), fault('timeout')], false) as SweepSeries[];
    const crashed = withCrashPoints(series, [ok.crash, call.crash]);
    expect(crashed.map((s) => s.label)).toEqual([
      'rate_limit + crash(after effect #2 of create_order)',
      'rate_limit + crash(after tool request #2)',
      'timeout + crash(after effect #2 of create_order)',
      'timeout + crash(after tool request #2)',
    ]);
    expect(crashed[1]!.crash).toEqual({ afterCall: 2 });
    expect(withCrashPoints(series, [])).toEqual(series);
    expect(pointSeed(1, crashed[0]!.label, 0)).not.toBe(pointSeed(1, 'rate_limit', 0));
    const bad = (text: string): string => {
      const r = parseSweepCrash(text);
      return r.kind === 'error' ? r.message : 'accepted';
    };
    expect(bad('{afterCall: 0}')).toMatch(/crash\.agent\.afterCall: Too small/);
    expect(bad('{nth: 2}')).toMatch(/crash\.agent: expected exactly one trigger/);
    expect(bad('{afterCal: 2}')).toMatch(/crash\.agent: Unrecognized key: "afterCal"/);
    expect(bad('{afterCall: [')).toMatch(/^the crash point is not YAML or JSON/);
  });
});
