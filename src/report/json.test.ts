import { describe, expect, it } from 'vitest';
import { FaultlineError } from '../core/errors.js';
import { DEFAULT_GATES, evaluateGates, parseGate } from '../stats/gates.js';
import {
  JSON_SCHEMA_VERSION,
  JsonReportSchema,
  parseJsonReport,
  renderJsonReport,
  runFromJsonReport,
  type JsonReport,
  type WallClock,
} from './json.js';
import { makeRun, sampleRun } from './testing.js';
import { passIntervalCurves } from '../stats/intervals.js';

const clockA: WallClock = {
  startedAt: '2026-01-05T09:00:00.000Z',
  finishedAt: '2026-01-05T09:00:01.250Z',
  durationMs: 1250,
};
const clockB: WallClock = {
  startedAt: '2026-03-01T17:30:00.000+01:00',
  finishedAt: '2026-03-01T17:30:09.000+01:00',
  durationMs: 9000,
};

const render = (wallClock: WallClock, history?: 'all'): string => {
  const run = sampleRun();
  return renderJsonReport(run, {
    gates: evaluateGates(run, DEFAULT_GATES),
    wallClock,
    ...(history ? { history } : {}),
  });
};

describe('JSON report', () => {
  it('validates against its versioned schema', () => {
    const report = JsonReportSchema.parse(JSON.parse(render(clockA)));
    expect(report.schemaVersion).toBe(JSON_SCHEMA_VERSION);
    expect(report.run).toEqual({
      seed: 42,
      k: 4,
      scenarios: ['order-partial-write', 'rate-limit-storm'],
      configs: ['naive', 'rulebook'],
      interrupted: false,
      trials: 16,
      failedTrials: 2,
      keepFailures: null,
    });
    expect(report.gates.passed).toBe(false);
    expect(report.gates.results.map((g) => g.gate)).toEqual([
      'pass^k>=1',
      'duplicates==0',
      'budget_violations==0',
      'unexercised==0',
    ]);
    expect(report.configs.map((c) => [c.config, c.successes, c.trials])).toEqual([
      ['naive', 6, 8],
      ['rulebook', 8, 8],
    ]);
  });

  it('is byte-identical for equal runs apart from the wallClock section, which comes last', () => {
    const a = render(clockA);
    const b = render(clockB);
    expect(a).not.toBe(b);
    const cut = (text: string): string => text.slice(0, text.indexOf('"wallClock"'));
    expect(cut(a)).toBe(cut(b));
    expect(Object.keys(JSON.parse(a) as object).at(-1)).toBe('wallClock');
    const { wallClock: wa, ...restA } = JSON.parse(a) as Record<string, unknown>;
    const { wallClock: wb, ...restB } = JSON.parse(b) as Record<string, unknown>;
    expect(restA).toEqual(restB);
    expect([wa, wb]).toEqual([clockA, clockB]);
  });

  it('records every trial with its status, end, failed checks, stats and replay command', () => {
    const report = JSON.parse(render(clockA)) as JsonReport;
    const cell = report.cells[0]!;
    expect([cell.scenario, cell.config, cell.status]).toEqual(['order-partial-write', 'naive', 'failed']);
    expect(cell.metrics.passHat).toEqual([0.5, 1 / 6, 0, 0]);
    expect(cell.trials.map((t) => [t.index, t.status, t.failed])).toEqual([
      [0, 'passed', []],
      [1, 'failed', ['duplicates']],
      [2, 'passed', []],
      [3, 'failed', ['budget']],
    ]);
    const t1 = cell.trials[1]!;
    expect(t1.seed).toBe(42001);
    expect(t1.end).toEqual({ kind: 'agent_ended', outcome: 'completed' });
    expect(t1.replay).toBe('faultline replay order-partial-write --config naive --seed 42 --trial 1');
    expect(t1.checks.find((c) => c.name === 'duplicates')!.verdict).toEqual({
      valid: false,
      message: 'orders:ref-1 was created 2 times',
      evidence: [{ subject: 'orders:ref-1', effects: [0, 1] }],
    });
    expect(t1.stats).toMatchObject({
      calls: 1,
      attempts: 2,
      deliveries: 2,
      effects: 2,
      duplicateEffects: 1,
      durationMs: 10_462,
    });
    expect(report.cells[1]!.trials[0]!.replay).toBe(
      'faultline replay rate-limit-storm --config naive --seed 42 --trial 0',
    );
  });

  it('carries the full history of failing trials only, unless asked for all', () => {
    const failingOnly = JSON.parse(render(clockA)) as JsonReport;
    const withHistory = failingOnly.cells.flatMap((c) =>
      c.trials.filter((t) => t.history !== undefined).map((t) => `${c.scenario}/${c.config}/${t.index}`),
    );
    expect(withHistory).toEqual(['order-partial-write/naive/1', 'order-partial-write/naive/3']);
    const t1 = failingOnly.cells[0]!.trials[1]!;
    expect(t1.history).toHaveLength(19);
    expect(t1.history![4]).toMatchObject({
      seq: 4,
      t: 0,
      type: 'fault',
      fault: { kind: 'partial_write', lostAs: 'timeout' },
    });

    const all = JSON.parse(render(clockA, 'all')) as JsonReport;
    expect(all.cells.every((c) => c.trials.every((t) => t.history !== undefined))).toBe(true);
  });

  it('refuses to write a report that breaks its schema', () => {
    const run = makeRun({ cells: [{ scenario: 'a', config: 'c' }] });
    expect(() => renderJsonReport(run, { gates: [], wallClock: { ...clockA, startedAt: 'yesterday' } })).toThrow(
      FaultlineError,
    );
  });

  it('reads a report back and rejects other versions', () => {
    const text = render(clockA);
    expect(parseJsonReport(text).run.seed).toBe(42);
    const v1 = JSON.stringify({ ...(JSON.parse(text) as object), schemaVersion: 1 });
    expect(() => parseJsonReport(v1, 'old.json')).toThrow(
      `old.json: schemaVersion 1 is not supported (expected ${JSON_SCHEMA_VERSION})`,
    );
    expect(() => parseJsonReport('{', 'x.json')).toThrow(/^x\.json: not JSON/);
    expect(() => parseJsonReport(JSON.stringify({ schemaVersion: JSON_SCHEMA_VERSION }))).toThrow(
      /not a faultline JSON report/,
    );
  });

  it('keeps the first failing trials in full and summarises every trial, saying how many were elided', () => {
    const fail = (check: string) => [{ check, message: `${check} failed` }];
    const run = makeRun({
      k: 6,
      keepFailures: 1,
      cells: [
        { scenario: 'a', config: 'c', fail: { 1: fail('duplicates'), 2: fail('budget'), 4: fail('duplicates') } },
      ],
    });
    const report = parseJsonReport(renderJsonReport(run, { gates: [], wallClock: clockA }));
    const cell = report.cells[0]!;
    expect(report.run.keepFailures).toBe(1);
    expect(cell.trials.map((t) => [t.index, t.status])).toEqual([[1, 'failed']]);
    expect(cell.trials[0]!.history).toBeDefined();
    expect(cell.elided).toBe(2);
    expect(cell.verdicts.map((g) => [g.status, g.failed, g.trials, g.first, g.replay])).toEqual([
      ['passed', [], 3, 0, 'faultline replay a --config c --seed 42 --trial 0'],
      ['failed', ['duplicates'], 2, 1, 'faultline replay a --config c --seed 42 --trial 1'],
      ['failed', ['budget'], 1, 2, 'faultline replay a --config c --seed 42 --trial 2'],
    ]);
    expect(cell.metrics).toMatchObject({ trials: 6, successes: 3, checkFailures: { duplicates: 2, budget: 1 } });
  });

  it('reads back into the run it was written from', () => {
    const run = makeRun({
      k: 4,
      keepFailures: 1,
      cells: sampleRun().cells.map((c) => ({ scenario: c.scenario, config: c.config })),
    });
    const options = { gates: evaluateGates(run, DEFAULT_GATES), wallClock: clockA };
    const text = renderJsonReport(run, options);
    expect(renderJsonReport(runFromJsonReport(parseJsonReport(text)), options)).toBe(text);
    const sample = sampleRun();
    const sampleText = renderJsonReport(sample, { gates: evaluateGates(sample, DEFAULT_GATES), wallClock: clockA });
    const back = runFromJsonReport(parseJsonReport(sampleText));
    expect(renderJsonReport(back, { gates: evaluateGates(back, DEFAULT_GATES), wallClock: clockA })).toBe(sampleText);
  });
});

describe('the figures a reporter shows', () => {
  it('are in the run result, computed once, and the same in a run read back from its report', () => {
    const run = makeRun({
      k: 4,
      cells: [
        { scenario: 'a', config: 'c', fail: { 1: [{ check: 'duplicates', message: 'twice' }] } },
        { scenario: 'b', config: 'c', trials: 5 },
        { scenario: 'outage', config: 'c', recovery: [100, null, 300, 200] },
      ],
    });
    const [a, b, outage] = run.cells;
    expect(a!.metrics.intervals).toEqual(passIntervalCurves([{ n: 4, c: 3 }]));
    expect(b!.metrics.intervals.hat).toHaveLength(5);
    expect(outage!.metrics.recovery!.interval![0]).toBeCloseTo(0.194, 3);
    const total = run.byConfig[0]!;
    expect(total.intervals).toEqual(
      passIntervalCurves(run.cells.map((c) => ({ n: c.metrics.trials, c: c.metrics.successes }))),
    );
    expect(total.intervals.hat).toHaveLength(4);
    expect(total.durationMs).toEqual({
      p50: a!.metrics.durationMs.p50,
      p95: Math.max(a!.metrics.durationMs.p95, b!.metrics.durationMs.p95, outage!.metrics.durationMs.p95),
      max: Math.max(a!.metrics.durationMs.max, b!.metrics.durationMs.max, outage!.metrics.durationMs.max),
    });
    const back = runFromJsonReport(parseJsonReport(renderJsonReport(run, { gates: [], wallClock: clockA })));
    expect(back.cells.map((c) => c.metrics)).toEqual(run.cells.map((c) => c.metrics));
    expect(back.byConfig).toEqual(run.byConfig);
    const written = parseJsonReport(renderJsonReport(run, { gates: [], wallClock: clockA })).configs[0]!;
    expect(written.durationMs).toEqual(total.durationMs);
    expect(written.tokens).toEqual(total.tokens);
  });
});

describe('JSON report of a scenario with heal and recovery', () => {
  const run = makeRun({
    k: 4,
    cells: [
      { scenario: 'outage', config: 'c', recovery: [1_000, 2_000, null, 500] },
      { scenario: 'plain', config: 'c' },
    ],
  });
  const options = { gates: evaluateGates(run, DEFAULT_GATES), wallClock: clockA };
  const text = renderJsonReport(run, options);

  it("writes each trial's time to recover and the cell's recovery figures with their interval", () => {
    const report = JsonReportSchema.parse(JSON.parse(text));
    const [outage, plain] = report.cells;
    expect(outage!.trials.map((t) => t.stats.recovery)).toEqual(
      [1_000, 2_000, null, 500].map((ms) => ({ timeToRecoverMs: ms, callsAfter: 0 })),
    );
    expect(outage!.metrics.recovery).toMatchObject({
      trials: 4,
      recovered: 3,
      rate: 0.75,
      timeToRecoverMs: { p50: 1_000, p95: null, max: null },
      never: 1,
    });
    expect(outage!.metrics.recovery!.interval![0]).toBeCloseTo(0.194, 3);
    expect(plain!.metrics.recovery).toBeUndefined();
    expect(plain!.trials[0]!.stats.recovery).toBeUndefined();
  });

  it('reads back into the same run, byte for byte, so shards merge their recovery exactly', () => {
    expect(renderJsonReport(runFromJsonReport(parseJsonReport(text)), options)).toBe(text);
  });
});

describe('JSON report intervals', () => {
  const run = sampleRun();
  const gates = evaluateGates(run, [...DEFAULT_GATES, parseGate('pass^2>=0.9@95%'), parseGate('pass_rate>=0.3@95%')]);
  const report = parseJsonReport(renderJsonReport(run, { gates, wallClock: clockA }));

  it('puts an interval beside every pass^k and pass@k point of a cell and of a configuration', () => {
    // naive × order-partial-write: 2 of 4; exact 95% interval of p from scipy: [0.0676, 0.9324].
    const cell = report.cells.find((c) => c.config === 'naive' && c.scenario === 'order-partial-write')!;
    expect(cell.metrics.intervals).toMatchObject({ confidence: 0.95, method: 'clopper-pearson' });
    const hat = cell.metrics.intervals!.passHat;
    expect(hat).toHaveLength(cell.metrics.passHat.length);
    expect(hat[0]![0]).toBeCloseTo(0.067585986488543, 12);
    expect(hat[0]![1]).toBeCloseTo(0.932414013511457, 12);
    expect(hat[1]![1]).toBeCloseTo(0.932414013511457 ** 2, 12);
    for (const c of [...report.cells.map((x) => x.metrics), ...report.configs]) {
      c.intervals!.passHat.forEach(([lo, hi], i) => expect(lo <= c.passHat[i]! && c.passHat[i]! <= hi).toBe(true));
      c.intervals!.passAt.forEach(([lo, hi], i) => expect(lo <= c.passAt[i]! && c.passAt[i]! <= hi).toBe(true));
    }
    expect(report.configs[0]!.intervals!.passHat).toHaveLength(4);
  });

  it("carries a bound gate's confidence, estimate and the trials it needs", () => {
    const bound = report.gates.results.find((g) => g.gate === 'pass^2>=0.9@95%')!;
    expect(bound.confidence).toBe(0.95);
    expect(bound.failures.find((f) => f.config === 'rulebook')).toMatchObject({
      estimate: 1,
      undecided: { trials: 4, needs: 71 },
    });
    expect(
      bound.failures.find((f) => f.config === 'naive' && f.scenario === 'order-partial-write')!.undecided,
    ).toBeUndefined();
  });

  it('still reads a report written without intervals (older version-2 writers)', () => {
    const text = renderJsonReport(run, { gates: evaluateGates(run, DEFAULT_GATES), wallClock: clockA });
    const bare = JSON.parse(text) as {
      cells: { metrics: Record<string, unknown> }[];
      configs: Record<string, unknown>[];
    };
    for (const c of bare.cells) delete c.metrics['intervals'];
    for (const c of bare.configs) delete c['intervals'];
    const again = runFromJsonReport(parseJsonReport(JSON.stringify(bare)));
    expect(renderJsonReport(again, { gates: evaluateGates(again, DEFAULT_GATES), wallClock: clockA })).toBe(text);
  });
});
