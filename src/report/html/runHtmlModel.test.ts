import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfigs, loadScenarios } from '../../scenario/library.js';
import { runMatrix } from '../../runner/run.js';
import { buildJsonReport, type JsonReport } from '../json.js';
import { renderRunHtml } from './renderRunHtml.js';
import { evidenceEvents, runHtmlModel, type RunHtmlModel } from './runHtmlModel.js';

const wallClock = { startedAt: '2026-01-05T09:00:00.000Z', finishedAt: '2026-01-05T09:00:02.000Z', durationMs: 2000 };

describe('runHtmlModel', () => {
  let report: JsonReport;
  let model: RunHtmlModel;
  beforeAll(async () => {
    const run = await runMatrix({
      scenarios: await loadScenarios(['read-timeout-retry', 'order-partial-write-idempotent']),
      configs: await loadConfigs(['rulebook', 'naive']),
      k: 3,
      seed: 1,
    });
    report = buildJsonReport(run, { wallClock, gates: [] });
    model = runHtmlModel(report);
  });

  it('puts failing cells first and keeps every cell', () => {
    expect(model.cells).toHaveLength(report.cells.length);
    const statuses = model.cells.map((c) => c.status);
    expect(statuses).toContain('failed');
    expect(statuses.indexOf('passed')).toBeGreaterThan(statuses.lastIndexOf('failed'));
    const naive = model.cells.find((c) => c.scenario === 'order-partial-write-idempotent' && c.config === 'naive')!;
    expect(naive).toMatchObject({ status: 'failed', trials: 3, successes: 0, pass1: 0, passK: 0, duplicates: 3 });
    // 0 of 3: the exact 95% interval of p is [0, 1 - 0.025^(1/3)] = [0, 0.7076].
    expect(naive.pass1Interval[0]).toBe(0);
    expect(naive.pass1Interval[1]).toBeCloseTo(1 - 0.025 ** (1 / 3), 12);
    expect(naive.passKInterval[1]).toBeCloseTo((1 - 0.025 ** (1 / 3)) ** 3, 12);
    expect(naive.kept).toHaveLength(3);
  });

  it('puts the partial write in the wire lane and the second order in the services lane, marked as a duplicate', () => {
    const trial = model.cells.find((c) => c.scenario === 'order-partial-write-idempotent' && c.config === 'naive')!
      .kept[0]!;
    const fault = trial.events.filter((e) => e.mark === 'fault');
    expect(fault.map((e) => [e.lane, e.text])).toEqual([
      ['wire', 'fault partial_write(lostAs=timeout) on req-1 (rule 0)'],
    ]);
    const orders = trial.events.filter((e) => e.type === 'effect' && e.text.includes('order.created'));
    expect(orders.map((e) => [e.lane, e.mark])).toEqual([
      ['services', 'effect'],
      ['services', 'duplicate'],
    ]);
    expect(trial.events.find((e) => e.type === 'model_turn')?.lane).toBe('agent');
    expect(trial.events.find((e) => e.type === 'attempt')?.lane).toBe('execution');
    expect(trial.diff).toEqual([
      { path: 'orders.ord-1.status', expected: 'paid', actual: 'created' },
      { path: 'effect order.created (times)', expected: 1, actual: 2 },
    ]);
  });

  it("links the duplicates verdict's evidence to both requests' events, both effects among them", () => {
    const cell = report.cells.find((c) => c.scenario === 'order-partial-write-idempotent' && c.config === 'naive')!;
    const history = cell.trials[0]!.history!;
    const evidence = cell.trials[0]!.checks.find((c) => c.name === 'duplicates')!.verdict;
    if (evidence.valid !== false) throw new Error('expected the duplicates check to fail');
    const seqs = evidenceEvents(evidence.evidence[0], history);
    const named = history.filter((e) => seqs.includes(e.seq));
    expect(named.filter((e) => e.type === 'effect')).toHaveLength(2);
    expect(named.some((e) => e.type === 'fault')).toBe(true);
    expect(new Set(named.map((e) => ('request' in e ? e.request : undefined)))).toEqual(new Set(['req-1', 'req-2']));
  });

  it('reads `seq` inside an `effects` list as a ledger number, elsewhere as an event', () => {
    const history = [
      { seq: 0, t: 0, type: 'trial_start', scenario: 's', config: 'c', trialIndex: 0, seed: 1, startMs: 0 },
      {
        seq: 1,
        t: 0,
        type: 'effect',
        request: 'req-9',
        service: 'orders',
        effect: 'order.created',
        key: 'k',
        ledgerSeq: 0,
      },
      { seq: 2, t: 5, type: 'agent_wait', ms: 5 },
    ] as const;
    expect(evidenceEvents({ effects: [{ seq: 0 }] }, history)).toEqual([1]);
    expect(evidenceEvents({ seq: 2 }, history)).toEqual([2]);
    expect(evidenceEvents({ requestIds: ['req-9'] }, history)).toEqual([1]);
    expect(evidenceEvents({ nothing: true }, history)).toEqual([]);
  });
});

describe('renderRunHtml', () => {
  it('embeds the data so no `</script>` or `<!--` in it can end the script, and it parses back', async () => {
    const run = await runMatrix({
      scenarios: await loadScenarios(['order-partial-write-idempotent']),
      configs: await loadConfigs(['naive']),
      k: 1,
      seed: 1,
    });
    const report = buildJsonReport(run, { wallClock, gates: [] });
    const hostile = '</script><script>alert(1)</script><!-- x';
    const changed: JsonReport = { ...report, cells: report.cells.map((c) => ({ ...c, scenario: hostile })) };
    const html = renderRunHtml(changed);
    expect(html).toContain(
      `content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"`,
    );
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/i);
    const data = /<script type="application\/json" id="faultline-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(data).not.toContain('<');
    expect((JSON.parse(data) as RunHtmlModel).cells[0]!.scenario).toBe(hostile);
    expect(html.match(/<script/g)).toHaveLength(2);
  });
});
